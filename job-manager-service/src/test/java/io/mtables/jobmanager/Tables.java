package io.mtables.jobmanager;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
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
        return new RefreshPlan(
                table,
                version,
                RefreshPlan.Status.ACTIVE,
                RefreshPlan.Mode.CONTINUOUS,
                new RefreshPlan.Freshness((int) checkpoint.toSeconds(), "SECOND"),
                true,
                checkpoint,
                null,
                Map.of(),
                "[I,UA,D]",
                key.isEmpty()
                        ? null
                        : new RefreshPlan.UpsertKey(key, RefreshPlan.UpsertKey.Origin.DERIVED),
                List.of(),
                List.of("hand-made"),
                List.of(),
                Instant.now());
    }

    public static RefreshPlan full(String table, long version) {
        return new RefreshPlan(
                table,
                version,
                RefreshPlan.Status.ACTIVE,
                RefreshPlan.Mode.FULL,
                new RefreshPlan.Freshness(1, "HOUR"),
                true,
                null,
                "0 0 0/1 * * ? *",
                Map.of(),
                "[I,UA]",
                null,
                List.of(),
                List.of("hand-made"),
                List.of(),
                Instant.now());
    }

    /** A FULL plan whose refreshes of unchanged Paimon inputs run no job. */
    public static RefreshPlan fullSkippingUnchanged(String table, long version) {
        RefreshPlan p = full(table, version);
        return new RefreshPlan(
                p.table(),
                p.definitionVersion(),
                p.status(),
                p.mode(),
                p.freshness(),
                p.freshnessDeclared(),
                p.checkpointInterval(),
                p.cron(),
                p.partitionFormatters(),
                p.changelogMode(),
                p.upsertKey(),
                p.upstreamTables(),
                p.reasons(),
                p.warnings(),
                p.plannedAt(),
                new RefreshPlan.Incremental(
                        RefreshPlan.Incremental.Level.UNCHANGED_INPUTS, "hand-made"));
    }

    /** A FULL plan whose refreshes overwrite only the partitions the given inputs changed. */
    public static RefreshPlan fullByChangedPartitions(
            String table, long version, Map<String, Map<String, String>> partitionsFrom) {
        RefreshPlan p = full(table, version);
        return new RefreshPlan(
                p.table(),
                p.definitionVersion(),
                p.status(),
                p.mode(),
                p.freshness(),
                p.freshnessDeclared(),
                p.checkpointInterval(),
                p.cron(),
                p.partitionFormatters(),
                p.changelogMode(),
                p.upsertKey(),
                p.upstreamTables(),
                p.reasons(),
                p.warnings(),
                p.plannedAt(),
                new RefreshPlan.Incremental(
                        RefreshPlan.Incremental.Level.CHANGED_PARTITIONS,
                        "hand-made",
                        partitionsFrom));
    }

    public static RefreshPlan withStatus(
            RefreshPlan plan, long version, RefreshPlan.Status status) {
        return new RefreshPlan(
                plan.table(),
                version,
                status,
                status == RefreshPlan.Status.DROPPED ? null : plan.mode(),
                plan.freshness(),
                plan.freshnessDeclared(),
                plan.checkpointInterval(),
                plan.cron(),
                plan.partitionFormatters(),
                plan.changelogMode(),
                plan.upsertKey(),
                plan.upstreamTables(),
                plan.reasons(),
                plan.warnings(),
                Instant.now(),
                plan.incremental());
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
