package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.junit.jupiter.api.Test;

/**
 * A captured table's watermark waits for the end of Debezium's snapshot; other tables keep theirs.
 */
class SnapshotHeldWatermarkTest {

    private static final String CAPTURED_CLICKS =
            "CREATE TABLE `default_catalog`.`shop`.`clicks` (id BIGINT NOT NULL, ts TIMESTAMP(3),"
                    + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND, PRIMARY KEY (id) NOT"
                    + " ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'c', 'format' ="
                    + " 'debezium-json', 'properties.bootstrap.servers' = 'x:1',"
                    + " 'scan.startup.mode' = 'earliest-offset')";

    @Test
    void aCapturedTablesWatermarkYieldsNothingForASnapshotsRecords() {
        TableEnvironment env = declared(CAPTURED_CLICKS);

        SnapshotHeldWatermark.apply(env, "default_catalog.shop.clicks");

        ResolvedSchema schema = env.from("`default_catalog`.`shop`.`clicks`").getResolvedSchema();
        assertThat(schema.getWatermarkSpecs()).hasSize(1);
        assertThat(schema.getWatermarkSpecs().get(0).getRowtimeAttribute()).isEqualTo("ts");
        assertThat(schema.getWatermarkSpecs().get(0).getWatermarkExpression().asSummaryString())
                .contains("snapshot")
                .contains("false")
                .contains("5");
        Column hidden = schema.getColumn(SnapshotHeldWatermark.COLUMN).orElseThrow();
        assertThat(hidden).isInstanceOf(Column.MetadataColumn.class);
        assertThat(((Column.MetadataColumn) hidden).getMetadataKey())
                .contains(SnapshotHeldWatermark.SOURCE_BLOCK_KEY);
        assertThat(
                        env.sqlQuery("SELECT * FROM `default_catalog`.`shop`.`clicks`")
                                .getResolvedSchema()
                                .getColumnNames())
                .as("what SELECT * reads")
                .containsExactly("id", "ts");
        // Flink plans the read with the Debezium source block: the job runs as planned.
        assertThat(
                        env.explainSql(
                                "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE"
                                        + " `default_catalog`.`shop`.`clicks`, DESCRIPTOR(ts),"
                                        + " INTERVAL '1' MINUTE)) GROUP BY window_start,"
                                        + " window_end"))
                .contains(SnapshotHeldWatermark.COLUMN);
    }

    @Test
    void aUsersColumnOfTheSameNameKeepsItsName() {
        TableEnvironment env =
                declared(
                        CAPTURED_CLICKS.replace(
                                "id BIGINT NOT NULL,",
                                "id BIGINT NOT NULL, "
                                        + SnapshotHeldWatermark.COLUMN
                                        + " STRING,"));

        SnapshotHeldWatermark.apply(env, "default_catalog.shop.clicks");

        ResolvedSchema schema = env.from("`default_catalog`.`shop`.`clicks`").getResolvedSchema();
        assertThat(schema.getColumn(SnapshotHeldWatermark.COLUMN).orElseThrow().getDataType())
                .hasToString("STRING");
        assertThat(schema.getColumn(SnapshotHeldWatermark.COLUMN + "_2")).isPresent();
    }

    @Test
    void aTableOfOtherRecordsOrWithoutAWatermarkIsLeftAsItIs() {
        for (String statement :
                List.of(
                        CAPTURED_CLICKS.replace("'debezium-json'", "'json'"),
                        CAPTURED_CLICKS.replace(
                                " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,", ""))) {
            TableEnvironment env = declared(statement);
            String before =
                    env.from("`default_catalog`.`shop`.`clicks`").getResolvedSchema().toString();

            SnapshotHeldWatermark.apply(env, "default_catalog.shop.clicks");

            assertThat(env.from("`default_catalog`.`shop`.`clicks`").getResolvedSchema())
                    .hasToString(before);
        }
    }

    private static TableEnvironment declared(String statement) {
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance().inStreamingMode().build());
        env.executeSql("CREATE DATABASE `default_catalog`.`shop`");
        env.executeSql(statement);
        return env;
    }
}
