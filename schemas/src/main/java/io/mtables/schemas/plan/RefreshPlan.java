package io.mtables.schemas.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How a materialized table is kept fresh, and why ({@code RefreshPlanned.v1} on {@code
 * mt.refresh.plans}, compacted, keyed by {@link #table}). One plan per definition version. Made
 * with {@link RefreshPlanBuilder} (generated) and changed with its withers ({@code
 * withPlannedAt(...)}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version this plan was made for; consumers ignore plans
 *     for versions older than one they have seen
 * @param status ACTIVE, SUSPENDED (the table is suspended: no job, no ticks), REFUSED (the table
 *     cannot be refreshed as declared; {@link #reasons} say why) or DROPPED (stop the pipeline,
 *     then remove the table; the last plan of a dropped table)
 * @param mode CONTINUOUS (a streaming job) or FULL (scheduled batch overwrites); null when REFUSED
 *     or DROPPED
 * @param freshness the freshness the plan keeps: declared, or the default of the mode
 * @param freshnessDeclared whether the freshness was declared (else it is the mode's default)
 * @param checkpointInterval CONTINUOUS: the checkpoint interval (half the freshness, so the lag
 *     stays within it)
 * @param cron FULL: the Quartz cron expression of the refresh period (Flink's conversion)
 * @param partitionFormatters FULL: partition column to date-time pattern; each scheduled refresh
 *     overwrites only the partition named by its scheduled time
 * @param changelogMode the changelog Flink's planner gives the query in streaming mode, such as
 *     {@code [I]} (inserts only) or {@code [I,UA,D]} (upserts and deletes); null when not known
 * @param upsertKey the key the table is written on (a Paimon primary-key table): the declared
 *     primary key, or the key Flink's planner derives from the query when it produces updates; null
 *     for a table written without a key
 * @param upstreamTables the materialized tables the query reads: a FULL table's tick for a period
 *     waits until those of them refreshing in the same period have done so; null or empty for none
 * @param reasons the decisions in plain words, in order
 * @param warnings traps the user would not see
 * @param plannedAt when the plan was made
 * @param incremental FULL: what a refresh may leave out, and why; null for CONTINUOUS, REFUSED,
 *     DROPPED, and in plans written before it
 * @param timeZone FULL: the time zone (IANA id) the cron and the partition formatters are evaluated
 *     in, so every service sees the same period boundaries; null for other plans and in plans
 *     written before it (the scheduler then uses its {@code mt.scheduler.zone})
 * @param miniBatch CONTINUOUS: how long the job's operators may hold changes to fold each key's
 *     into one (Flink's {@code table.exec.mini-batch.allow-latency}; a regular join is never
 *     batched); null for a FULL plan, in plans written before it, and in those written before
 *     2026-12-04 for a query with a regular join
 */
@RecordBuilder
public record RefreshPlan(
        String table,
        long definitionVersion,
        Status status,
        Mode mode,
        Freshness freshness,
        boolean freshnessDeclared,
        Duration checkpointInterval,
        String cron,
        Map<String, String> partitionFormatters,
        String changelogMode,
        UpsertKey upsertKey,
        List<String> upstreamTables,
        List<String> reasons,
        List<Warning> warnings,
        Instant plannedAt,
        Incremental incremental,
        String timeZone,
        @JsonInclude(JsonInclude.Include.NON_NULL) Duration miniBatch)
        implements RefreshPlanBuilder.With {

    /**
     * What a FULL refresh may leave out.
     *
     * @param level NONE (every refresh runs its job); UNCHANGED_INPUTS (a refresh whose inputs, all
     *     Paimon tables, have the snapshots the last successful refresh of the same partition read,
     *     at the same definition version, runs no job: NO_DATA); CHANGED_PARTITIONS (that, and a
     *     scheduled refresh overwrites only the table's partitions whose inputs changed since the
     *     last successful refresh, found from the inputs' snapshots through {@code partitionsFrom})
     * @param reason why, in plain words
     * @param partitionsFrom CHANGED_PARTITIONS: each input that feeds the table partition by
     *     partition, with the table's partition column to the input's partition column it comes
     *     from; a change to any other input refreshes the whole table. Null otherwise.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Incremental(
            Level level, String reason, Map<String, Map<String, String>> partitionsFrom) {

        public Incremental(Level level, String reason) {
            this(level, reason, null);
        }

        /** How much a refresh may leave out. */
        public enum Level {
            NONE,
            UNCHANGED_INPUTS,
            CHANGED_PARTITIONS
        }
    }

    /** Whether the table's pipeline runs. */
    public enum Status {
        ACTIVE,
        SUSPENDED,
        REFUSED,
        DROPPED
    }

    /** The refresh mode. */
    public enum Mode {
        CONTINUOUS,
        FULL
    }

    /**
     * A freshness target.
     *
     * @param interval a positive integer
     * @param unit SECOND, MINUTE, HOUR or DAY
     */
    public record Freshness(int interval, String unit) {}

    /**
     * The key rows are upserted and deleted on.
     *
     * @param columns the key columns, in the table's column order; for SYNTHETIC, the columns its
     *     value encodes (empty for a table of at most one row)
     * @param origin DECLARED (PRIMARY KEY in the statement), DERIVED (by Flink's planner from the
     *     query's GROUP BY or joins) or SYNTHETIC (the table is keyed on {@link
     *     SyntheticKey#COLUMN}, a NULL-safe encoding of {@code columns} computed in the job)
     * @param branches for a SYNTHETIC key of a UNION ALL, each branch's key columns (output column
     *     names, empty for a branch of at most one row): the key encodes the branch's number (from
     *     1) and then its key ({@link SyntheticKey#branchExpression}); {@code columns} is then
     *     every column some branch is keyed on. Null for any other key.
     * @param emptyInputRow for a SYNTHETIC key of a table of at most one row (a global aggregate):
     *     the row the query answers when it reads no rows (COUNT 0, SUM NULL, ...), each column's
     *     value as text (cast to the column's type; null for NULL), found by Calcite's reductions;
     *     the streaming job holds it while the aggregate has no row, as a batch query would answer.
     *     The empty list when the query then answers no row (a failing HAVING); null when not known
     *     (the table then has no row while its input is empty, and the plan warns
     *     NoRowWithoutInput) and for any other key.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record UpsertKey(
            List<String> columns,
            Origin origin,
            List<List<String>> branches,
            List<String> emptyInputRow) {

        public UpsertKey(List<String> columns, Origin origin) {
            this(columns, origin, null, null);
        }

        public UpsertKey(List<String> columns, Origin origin, List<List<String>> branches) {
            this(columns, origin, branches, null);
        }

        /**
         * Whether the streaming job holds a row while the query has none: a global aggregate's
         * {@link #emptyInputRow}.
         */
        @JsonIgnore
        public boolean holdsEmptyInputRow() {
            return origin == Origin.SYNTHETIC
                    && branches == null
                    && columns.isEmpty()
                    && emptyInputRow != null
                    && !emptyInputRow.isEmpty();
        }

        /** Where the key comes from. */
        public enum Origin {
            DECLARED,
            DERIVED,
            SYNTHETIC
        }
    }

    /**
     * A trap in the definition.
     *
     * @param code a stable CamelCase word
     * @param message what happens and what to do, for a human
     */
    public record Warning(String code, String message) {}
}
