package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.EmptyInputRow;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming job's INSERT with a synthetic key, planned by Flink against a real Paimon table.
 */
class JobSqlTest {

    private static final String PEOPLE =
            "CREATE TABLE `default_catalog`.`s`.`people` (id BIGINT NOT NULL, firstname STRING,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'p',"
                    + " 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1',"
                    + " 'scan.startup.mode' = 'earliest-offset')";
    private static final String ACCOUNTS =
            "CREATE TABLE `default_catalog`.`s`.`accounts` (id BIGINT NOT NULL, plan STRING,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'a',"
                    + " 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1',"
                    + " 'scan.startup.mode' = 'earliest-offset')";

    @TempDir Path warehouse;

    @Test
    void eachUnionAllBranchComputesItsOwnKeyUnderTheTablesColumnNames() {
        TableDefinition union =
                definition(
                        "SELECT `p`.`id`, `p`.`firstname` AS `name` FROM"
                            + " `default_catalog`.`s`.`people` AS `p` UNION ALL SELECT `a`.`id`,"
                            + " `a`.`plan` FROM `default_catalog`.`s`.`accounts` AS `a`");
        RefreshPlan plan =
                plan(
                        new UpsertKey(
                                List.of("id"),
                                UpsertKey.Origin.SYNTHETIC,
                                List.of(List.of("id"), List.of("id"))));

        String insert = JobSql.insert(union, plan);

        assertThat(insert)
                .contains("CONCAT('1:1', ")
                .contains("CONCAT('1:2', ")
                .contains("UNION ALL");
        assertThat(explain(union, plan, insert)).contains("Sink(table=[mt_warehouse.s.t]");
    }

    @Test
    void aNullableGroupKeyIsEncodedAfterTheColumns() {
        TableDefinition grouped =
                definition(
                        "SELECT COUNT(*) AS `id`, `p`.`firstname` AS `name` FROM"
                            + " `default_catalog`.`s`.`people` AS `p` GROUP BY `p`.`firstname`");
        RefreshPlan plan = plan(new UpsertKey(List.of("name"), UpsertKey.Origin.SYNTHETIC));

        assertThat(explain(grouped, plan, JobSql.insert(grouped, plan)))
                .contains("Sink(table=[mt_warehouse.s.t]");
    }

    @Test
    void aGlobalAggregateHoldsItsEmptyInputRowWhileItHasNone() {
        TableDefinition counted =
                definition(
                        "SELECT COUNT(*) AS `id`, MAX(`p`.`firstname`) AS `name` FROM"
                                + " `default_catalog`.`s`.`people` AS `p`");
        RefreshPlan plan =
                plan(
                        new UpsertKey(
                                List.of(),
                                UpsertKey.Origin.SYNTHETIC,
                                null,
                                Arrays.asList("0", null)));

        String insert = JobSql.insert(counted, plan);

        assertThat(insert)
                .contains(
                        "CASE WHEN `q`.`__mt_one` IS NULL THEN CAST('0' AS BIGINT) ELSE `q`.`id`"
                                + " END AS `id`")
                .contains(
                        "CASE WHEN `q`.`__mt_one` IS NULL THEN CAST(NULL AS STRING) ELSE `q`.`name`"
                                + " END AS `name`")
                .contains("FROM " + EmptyInputRow.ONE_ROW + " AS `e`\nLEFT JOIN");
        assertThat(explain(counted, plan, insert))
                .contains("Sink(table=[mt_warehouse.s.t]")
                .contains("Join(joinType=[LeftOuterJoin]");
    }

    @Test
    void dataFilesAreOrcUnlessTheTableSaysOtherwise() {
        TableDefinition plain =
                definition(
                        "SELECT `p`.`id`, `p`.`firstname` AS `name` FROM"
                                + " `default_catalog`.`s`.`people` AS `p`");
        TableDefinition parquet = withOptions(plain, Map.of("file.format", "parquet"));
        RefreshPlan plan = plan(new UpsertKey(List.of("id"), UpsertKey.Origin.DERIVED));

        assertThat(JobSql.createTable(plain, plan)).contains("'file.format' = 'orc'");
        assertThat(JobSql.createTable(parquet, plan))
                .contains("'file.format' = 'parquet'")
                .doesNotContain("'orc'");
    }

    private static TableDefinition withOptions(TableDefinition d, Map<String, String> options) {
        return TableDefinitionBuilder.builder(d)
                .options(options)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private String explain(TableDefinition definition, RefreshPlan plan, String insert) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.executeSql("CREATE DATABASE `default_catalog`.`s`");
        env.executeSql(PEOPLE);
        env.executeSql(ACCOUNTS);
        env.executeSql(JobSql.createCatalog(Warehouse.at(warehouse.toString())));
        env.executeSql(JobSql.createDatabase(definition.table()));
        env.executeSql(JobSql.createTable(definition, plan));
        JobSql.declareSources(definition, plan).forEach(env::executeSql);
        return env.explainSql(insert);
    }

    private static TableDefinition definition(String query) {
        return TableDefinitionBuilder.builder()
                .table("default_catalog.s.t")
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("x")
                .columns(
                        List.of(
                                new TableDefinition.Column("id", "BIGINT", true),
                                new TableDefinition.Column("name", "STRING", true)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(query, query))
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }

    private static RefreshPlan plan(UpsertKey key) {
        return RefreshPlanBuilder.builder()
                .table("default_catalog.s.t")
                .definitionVersion(1)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness(5, "SECOND"))
                .freshnessDeclared(true)
                .checkpointInterval(Duration.ofSeconds(5))
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I,UB,UA,D]")
                .upsertKey(key)
                .upstreamTables(List.of())
                .reasons(List.of("test"))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .build();
    }
}
