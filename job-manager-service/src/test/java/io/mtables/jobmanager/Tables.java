package io.mtables.jobmanager;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Hand-made definitions and plans, as ddl-service and planner-service would publish them. */
public final class Tables {

    private Tables() {}

    public static TableDefinition.SourceTable kafkaSource(
            String table, String columns, String topic, String format, String bootstrap) {
        String[] parts = table.split("\\.");
        String statement =
                "CREATE TABLE `"
                        + parts[0]
                        + "`.`"
                        + parts[1]
                        + "`.`"
                        + parts[2]
                        + "` ("
                        + columns
                        + ") WITH ('connector' = 'kafka', 'topic' = '"
                        + topic
                        + "', 'format' = '"
                        + format
                        + "', 'properties.bootstrap.servers' = '"
                        + bootstrap
                        + "', 'scan.startup.mode' = 'earliest-offset')";
        return new TableDefinition.SourceTable(
                table, TableDefinition.Kind.SOURCE_TABLE, 1, statement, null, null);
    }

    /** A materialized table as a source of another one. */
    public static TableDefinition.SourceTable materializedSource(TableDefinition table) {
        return new TableDefinition.SourceTable(
                table.table(),
                TableDefinition.Kind.MATERIALIZED_TABLE,
                table.version(),
                table.statement(),
                table.columns(),
                table.partitionKeys());
    }

    public static TableDefinition materialized(
            String table,
            long version,
            List<Column> columns,
            List<String> partitionKeys,
            String expandedQuery,
            List<TableDefinition.SourceTable> sources,
            TableDefinition.Status status) {
        return TableDefinitionBuilder.builder()
                .table(table)
                .version(version)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("CREATE MATERIALIZED TABLE ...")
                .columns(columns)
                .primaryKey(List.of())
                .partitionKeys(partitionKeys)
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(expandedQuery, expandedQuery))
                .sources(sources)
                .status(status)
                .resumeOptions(Map.of())
                .createdAt(Instant.now())
                .updatedAt(Instant.now())
                .requestId(null)
                .build();
    }

    public static RefreshPlan continuous(
            String table, long version, List<String> key, Duration checkpoint) {
        return RefreshPlanBuilder.builder()
                .table(table)
                .definitionVersion(version)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness((int) checkpoint.toSeconds(), "SECOND"))
                .freshnessDeclared(true)
                .checkpointInterval(checkpoint)
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I,UA,D]")
                .upsertKey(
                        key.isEmpty()
                                ? null
                                : new RefreshPlan.UpsertKey(
                                        key, RefreshPlan.UpsertKey.Origin.DERIVED))
                .upstreamTables(List.of())
                .reasons(List.of("hand-made"))
                .warnings(List.of())
                .plannedAt(Instant.now())
                .build();
    }

    public static RefreshPlan full(String table, long version) {
        return RefreshPlanBuilder.builder()
                .table(table)
                .definitionVersion(version)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.FULL)
                .freshness(new RefreshPlan.Freshness(1, "HOUR"))
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .cron("0 0 0/1 * * ? *")
                .partitionFormatters(Map.of())
                .changelogMode("[I,UA]")
                .upsertKey(null)
                .upstreamTables(List.of())
                .reasons(List.of("hand-made"))
                .warnings(List.of())
                .plannedAt(Instant.now())
                .build();
    }

    /** A FULL plan whose refreshes of unchanged Paimon inputs run no job. */
    public static RefreshPlan fullSkippingUnchanged(String table, long version) {
        RefreshPlan p = full(table, version);
        return RefreshPlanBuilder.builder(p)
                .incremental(
                        new RefreshPlan.Incremental(
                                RefreshPlan.Incremental.Level.UNCHANGED_INPUTS, "hand-made"))
                .timeZone(null)
                .miniBatch(null)
                .build();
    }

    /** A FULL plan whose refreshes overwrite only the partitions the given inputs changed. */
    public static RefreshPlan fullByChangedPartitions(
            String table, long version, Map<String, Map<String, String>> partitionsFrom) {
        RefreshPlan p = full(table, version);
        return RefreshPlanBuilder.builder(p)
                .incremental(
                        new RefreshPlan.Incremental(
                                RefreshPlan.Incremental.Level.CHANGED_PARTITIONS,
                                "hand-made",
                                partitionsFrom))
                .timeZone(null)
                .miniBatch(null)
                .build();
    }

    public static RefreshPlan withStatus(
            RefreshPlan plan, long version, RefreshPlan.Status status) {
        return RefreshPlanBuilder.builder(plan)
                .definitionVersion(version)
                .status(status)
                .mode(status == RefreshPlan.Status.DROPPED ? null : plan.mode())
                .plannedAt(Instant.now())
                .timeZone(null)
                .miniBatch(null)
                .build();
    }

    /**
     * The definition with these resume options (Flink options of its jobs, as RESUME WITH sets).
     */
    public static TableDefinition withResumeOptions(
            TableDefinition d, Map<String, String> options) {
        return TableDefinitionBuilder.builder(d)
                .resumeOptions(options)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    public static TableDefinition withVersion(
            TableDefinition d, long version, TableDefinition.Status status) {
        return TableDefinitionBuilder.builder(d)
                .version(version)
                .status(status)
                .updatedAt(Instant.now())
                .requestId(null)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }
}
