package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.domain.StatementException;
import java.time.Duration;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.junit.jupiter.api.Test;

class FlinkSqlTest {

    private static final FlinkSql FLINK = new FlinkSql(Duration.ofMinutes(30));

    @Test
    void sourceTableWithCompleteOptionsIsReadable() {
        FLINK.ensureDatabase("default_catalog", "t1");
        FLINK.execute(
                "CREATE TABLE t1.orders (id BIGINT, ds STRING) WITH ('connector' = 'kafka', 'topic'"
                        + " = 'o', 'format' = 'debezium-json', 'properties.bootstrap.servers' ="
                        + " 'x:1')");
        FLINK.checkReadable(
                "default_catalog.t1.orders",
                ((CreateTableOperation)
                                FLINK.convert(
                                        "CREATE TABLE t1.orders2 (id BIGINT, ds STRING) WITH"
                                            + " ('connector' = 'kafka', 'topic' = 'o', 'format' ="
                                            + " 'debezium-json', 'properties.bootstrap.servers' ="
                                            + " 'x:1', 'scan.startup.mode' = 'earliest-offset')"))
                        .getCatalogTable());
    }

    @Test
    void sourceTableWithMissingOptionsSaysWhichAreMissing() {
        FLINK.ensureDatabase("default_catalog", "t2");
        var bad =
                ((CreateTableOperation)
                                FLINK.convert(
                                        "CREATE TABLE t2.bad (a INT) WITH ('connector' = 'kafka',"
                                                + " 'format' = 'json')"))
                        .getCatalogTable();
        assertThatThrownBy(() -> FLINK.checkReadable("default_catalog.t2.bad", bad))
                .isInstanceOf(StatementException.class)
                .hasMessageContaining("Missing required options");
    }

    @Test
    void extensionsAreRecognisedAndPositionsKept() {
        var auto =
                FLINK.parse("CREATE MATERIALIZED TABLE a.b REFRESH_MODE = AUTO AS SELECT 1 AS x");
        var orAlter = FLINK.parse("CREATE OR ALTER MATERIALIZED TABLE a.b AS SELECT 1 AS x");
        var describe = FLINK.parse("DESC MATERIALIZED TABLE a.b");

        assertThat(auto.autoRefreshMode()).isTrue();
        assertThat(orAlter.createOrAlter()).isTrue();
        assertThat(describe.describeMaterialized()).isTrue();
        assertThat(auto.text())
                .hasSameSizeAs(
                        "CREATE MATERIALIZED TABLE a.b REFRESH_MODE = AUTO AS SELECT 1 AS x");
    }
}
