package io.mtables.schemas.catalog;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mtables.schemas.plan.RefreshPlan;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One version of a table in the catalog ({@code TableDefined.v1} on {@code mt.table.definitions},
 * keyed by {@link #table}). It carries all a consumer needs to act without calling back. Made with
 * {@link TableDefinitionBuilder} (generated: {@code builder()}, {@code builder(from)}) and changed
 * with its withers ({@code withOwner(...)}, {@code with(b -> b.status(...).version(...))}).
 *
 * @param table the fully qualified identifier, {@code catalog.database.name}
 * @param version 1 for a new table, +1 for every accepted change; consumers ignore older versions
 * @param kind a source table (declared with CREATE TABLE) or a materialized table
 * @param statement the table's DDL as one statement; for a materialized table, the canonical CREATE
 *     statement of this version (clauses in Flink's order)
 * @param columns the columns; for a materialized table, derived from the query
 * @param primaryKey the declared primary key columns, empty when none
 * @param partitionKeys the PARTITIONED BY columns, empty when none
 * @param distribution DISTRIBUTED BY, or null
 * @param options the WITH options
 * @param comment the COMMENT, or null
 * @param freshness the declared FRESHNESS, or null when none was given (the planner applies the
 *     default of the chosen mode)
 * @param refreshMode the declared REFRESH_MODE: AUTO when none was given; null for source tables
 * @param query the AS query, as written and as expanded by Flink (fully qualified); null for source
 *     tables
 * @param sources the tables the query reads, with their definitions; empty for source tables
 * @param status ACTIVE or SUSPENDED (materialized tables)
 * @param resumeOptions the options of the latest RESUME WITH (...), for that run only
 * @param createdAt when version 1 was accepted
 * @param updatedAt when this version was accepted
 * @param requestId the request that made this version
 * @param queryChange the latest change of the query (a materialized table), carried into later
 *     versions that keep the query; null while the query is the one of version 1
 * @param previewedPlan the plan ddl-service made of this version when it accepted it, for
 *     planner-service to take as its own when nothing it plans with differs; null when none
 * @param owner the principal that created the table (version 1), carried into every later version:
 *     it holds every privilege on the table; null for tables created before owners were recorded
 */
@RecordBuilder
public record TableDefinition(
        String table,
        long version,
        Kind kind,
        String statement,
        List<Column> columns,
        List<String> primaryKey,
        List<String> partitionKeys,
        Distribution distribution,
        Map<String, String> options,
        String comment,
        Freshness freshness,
        RefreshMode refreshMode,
        Query query,
        List<SourceTable> sources,
        Status status,
        Map<String, String> resumeOptions,
        Instant createdAt,
        Instant updatedAt,
        String requestId,
        QueryChange queryChange,
        @JsonInclude(JsonInclude.Include.NON_NULL) PreviewedPlan previewedPlan,
        @JsonInclude(JsonInclude.Include.NON_NULL) String owner)
        implements TableDefinitionBuilder.With {

    /**
     * The plan ddl-service made of a version when it accepted it (the same rules and Flink verdicts
     * as planner-service's), and what it was made with: planner-service takes it as its own when
     * its settings are these and its plans of the upstream tables are of these versions, so Flink
     * plans the query once, not twice, between the CREATE and its job (docs/planner.md).
     *
     * @param plan the plan, of this table and version
     * @param upstreamVersions each materialized table the query reads: the definition version of
     *     the plan the preview was made with, 0 when there was none
     * @param settings the planner settings it was made with, in the form the schema defines ({@code
     *     PlannerSettings.toContract})
     */
    public record PreviewedPlan(
            RefreshPlan plan, Map<String, Long> upstreamVersions, String settings) {}

    /**
     * What a change of the query did to the table's running streaming job, as ddl-service judged it
     * when it accepted the change (seed 004's verdict, from Flink's compiled plans;
     * docs/evolution.md).
     *
     * @param fromVersion the version whose query was replaced
     * @param verdict whether the running job's state fits the new query
     * @param reason why, naming Flink's operators
     * @param action what the job manager does with the table
     * @param writtenRows for a COMPATIBLE change whose job is restored from the old query's state:
     *     the Flink SQL query over {@code __mt_written} (the table's rows, with the old query's
     *     columns) whose answer is the new query's rows for them, run once over the table before
     *     the restored job goes on; null when the state is not restored (a switch-over)
     * @param bridge where the sources no longer hold every change: how the switch-over keeps the
     *     old query's rows they can no longer give (seed 004's bridge); null when they hold all
     */
    public record QueryChange(
            long fromVersion,
            Verdict verdict,
            String reason,
            String action,
            @JsonInclude(JsonInclude.Include.NON_NULL) String writtenRows,
            @JsonInclude(JsonInclude.Include.NON_NULL) HistoryBridge bridge) {

        /** A change carried out without restoring the state. */
        public QueryChange(long fromVersion, Verdict verdict, String reason, String action) {
            this(fromVersion, verdict, reason, action, null, null);
        }

        /** A change whose sources hold every change since they began. */
        public QueryChange(
                long fromVersion,
                Verdict verdict,
                String reason,
                String action,
                String writtenRows) {
            this(fromVersion, verdict, reason, action, writtenRows, null);
        }
    }

    /**
     * Seed 004's bridge, for a window table whose sources lost their oldest changes (Kafka
     * retention): at the switch-over the table keeps the old query's rows of every window that
     * ended by the cut-over (the newest {@code column} the old job wrote before it stopped) and
     * takes the new query's rows of the windows after it.
     *
     * @param column the output column holding each row's window end (a window aggregate's {@code
     *     window_end}, in the table's key, in the old and the new query)
     * @param missingHistory what the sources no longer hold, in words
     */
    public record HistoryBridge(String column, String missingHistory) {}

    /** COMPATIBLE, INCOMPATIBLE, UNKNOWN (seed 004), or NONE: no streaming state to keep. */
    public enum Verdict {
        COMPATIBLE,
        INCOMPATIBLE,
        UNKNOWN,
        NONE
    }

    /** What kind of table. */
    public enum Kind {
        SOURCE_TABLE,
        MATERIALIZED_TABLE
    }

    /** The declared refresh mode; AUTO lets the planner choose. */
    public enum RefreshMode {
        AUTO,
        CONTINUOUS,
        FULL
    }

    /** Whether the table's refresh pipeline should run. */
    public enum Status {
        ACTIVE,
        SUSPENDED
    }

    /**
     * A column.
     *
     * @param name the column name
     * @param type Flink's SQL type, such as {@code DECIMAL(10, 2)}, without nullability
     * @param nullable whether the column may hold NULL
     */
    public record Column(String name, String type, boolean nullable) {}

    /**
     * DISTRIBUTED BY.
     *
     * @param kind HASH or RANGE; null for {@code DISTRIBUTED INTO n BUCKETS}
     * @param keys the bucket key columns
     * @param buckets the bucket count, or null
     */
    public record Distribution(String kind, List<String> keys, Integer buckets) {}

    /**
     * FRESHNESS = INTERVAL 'interval' unit.
     *
     * @param interval a positive integer
     * @param unit SECOND, MINUTE, HOUR or DAY
     */
    public record Freshness(int interval, String unit) {}

    /**
     * The AS query.
     *
     * @param original as the user wrote it
     * @param expanded as Flink expanded it: identifiers fully qualified, stars expanded
     */
    public record Query(String original, String expanded) {}

    /**
     * A table the query reads, with what is needed to read it.
     *
     * @param table the fully qualified identifier
     * @param kind source or materialized table
     * @param version the definition version the query was validated against
     * @param statement that table's DDL
     * @param columns that table's columns at that version (null in events written before chains)
     * @param partitionKeys that table's partition columns (null in events written before chains)
     */
    public record SourceTable(
            String table,
            Kind kind,
            long version,
            String statement,
            List<Column> columns,
            List<String> partitionKeys) {}
}
