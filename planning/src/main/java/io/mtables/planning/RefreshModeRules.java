package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Freshness;
import io.mtables.schemas.plan.RefreshPlan.Incremental;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.Status;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import io.mtables.schemas.plan.RefreshPlan.Warning;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.catalog.IntervalFreshness;

/**
 * Seed 001's rules for the refresh mode, with Flink's option names: an explicit REFRESH_MODE wins;
 * otherwise a freshness below the threshold means CONTINUOUS, else FULL; a missing freshness takes
 * the default of the mode. Flink's planner has the last word on what can run: a query that cannot
 * stream is FULL, one that cannot run as a batch is CONTINUOUS, and an updating stream needs a key.
 * Every decision is written down as a reason.
 */
public final class RefreshModeRules {

    private static final Pattern DATE_FORMATTER =
            Pattern.compile("^partition\\.fields\\.(.+)\\.date-formatter$");

    private RefreshModeRules() {}

    /**
     * The plan for one version of a materialized table.
     *
     * @param query what Flink's planner said about the query
     */
    public static RefreshPlan plan(
            TableDefinition table, PlannerSettings settings, QueryAnalysis query, Instant now) {
        List<String> reasons = new ArrayList<>();
        Mode mode = ModeChoice.choose(table, settings, query, reasons);
        if (mode == null) {
            return refused(table, null, query, reasons, now);
        }
        describeStreaming(mode, query, reasons);
        UpsertKey key = KeyChoice.choose(table, mode, query, reasons);
        if (mode == Mode.CONTINUOUS && query.updating() && key == null) {
            if (table.refreshMode() == RefreshMode.CONTINUOUS || !query.batch().runs()) {
                reasons.add(
                        "Refused: the query produces updates and deletes, and Flink derives no key"
                            + " from it to apply them on. Declare PRIMARY KEY (...) NOT ENFORCED on"
                            + " columns that identify a result row, or select a unique column (such"
                            + " as a source's primary key).");
                return refused(table, null, query, reasons, now);
            }
            reasons.add("FULL instead: each refresh overwrites the table, which needs no key.");
            mode = Mode.FULL;
        }
        boolean declared = table.freshness() != null;
        Duration freshness =
                declared
                        ? Durations.of(
                                new Freshness(
                                        table.freshness().interval(), table.freshness().unit()))
                        : mode == Mode.CONTINUOUS
                                ? settings.defaultContinuousFreshness()
                                : settings.defaultFullFreshness();
        if (!declared) {
            reasons.add(
                    "No FRESHNESS was declared: the "
                            + mode
                            + " default "
                            + Durations.words(freshness)
                            + " applies"
                            + " (materialized-table.default-freshness."
                            + (mode == Mode.CONTINUOUS ? "continuous" : "full")
                            + ").");
        }
        Duration checkpoint = null;
        Duration miniBatch = null;
        String cron = null;
        Map<String, String> formatters = new TreeMap<>();
        if (mode == Mode.CONTINUOUS) {
            checkpoint = checkpointInterval(freshness);
            reasons.add(
                    "Checkpoint every "
                            + Durations.precise(checkpoint)
                            + ", half the freshness: each checkpoint commits a snapshot, so the"
                            + " newest change a reader sees is at most one interval and the"
                            + " commit's own time old, within the freshness.");
            miniBatch = MiniBatches.of(checkpoint);
            reasons.add(MiniBatches.reason(miniBatch, query));
            if (!query.latestValueSources().isEmpty()) {
                reasons.add(ChangeStreamDelivery.reason(table, query.latestValueSources()));
            }
        } else {
            Freshness f = Durations.freshnessOf(freshness);
            try {
                cron =
                        IntervalFreshness.convertFreshnessToCron(
                                IntervalFreshness.of(
                                        String.valueOf(f.interval()),
                                        IntervalFreshness.TimeUnit.valueOf(f.unit())));
            } catch (RuntimeException e) {
                reasons.add(
                        "Refused: FULL needs a freshness that is a cron period, and "
                                + Durations.words(freshness)
                                + " is not ("
                                + e.getMessage()
                                + "). Allowed: SECOND or MINUTE 1, 2, 3, 4, 5, 6, 10, 12, 15, 20,"
                                + " 30; HOUR 1, 2, 3, 4, 6, 8, 12; DAY 1.");
                return refused(table, f, query, reasons, now);
            }
            reasons.add(
                    "Refresh on the cron '"
                            + cron
                            + "' (every "
                            + Durations.words(freshness)
                            + ").");
            formatters.putAll(dateFormatters(table.options()));
            if (!formatters.isEmpty()) {
                formatters.forEach(
                        (column, pattern) ->
                                reasons.add(
                                        "Each scheduled refresh overwrites only the partition "
                                                + column
                                                + " = its scheduled time formatted"
                                                + " '"
                                                + pattern
                                                + "'; other partitions change only with ALTER ..."
                                                + " REFRESH PARTITION."));
            } else {
                reasons.add("Each scheduled refresh overwrites the whole table.");
            }
        }
        List<Warning> warnings = PlanWarnings.of(table, mode, freshness, key, query);
        Status status =
                table.status() == TableDefinition.Status.SUSPENDED
                        ? Status.SUSPENDED
                        : Status.ACTIVE;
        if (status == Status.SUSPENDED) {
            reasons.add(
                    "Suspended: no job runs and no refresh is scheduled until ALTER ... RESUME.");
        }
        Incremental incremental = mode == Mode.FULL ? IncrementalRefresh.of(table, query) : null;
        if (incremental != null) {
            reasons.add(incremental.reason());
        }
        return RefreshPlanBuilder.builder()
                .table(table.table())
                .definitionVersion(table.version())
                .status(status)
                .mode(mode)
                .freshness(Durations.freshnessOf(freshness))
                .freshnessDeclared(declared)
                .checkpointInterval(checkpoint)
                .cron(cron)
                .partitionFormatters(formatters)
                .changelogMode(query.changelogMode())
                .upsertKey(key)
                .upstreamTables(upstreamTables(table))
                .reasons(reasons)
                .warnings(warnings)
                .plannedAt(now)
                .incremental(incremental)
                .timeZone(mode == Mode.FULL ? settings.timeZone().getId() : null)
                .miniBatch(miniBatch)
                .build();
    }

    private static void describeStreaming(Mode mode, QueryAnalysis query, List<String> reasons) {
        switch (query.verdict()) {
            case STREAMABLE -> {
                if (mode == Mode.CONTINUOUS) {
                    reasons.add(
                            "Flink's planner runs the query as a stream with the changelog "
                                    + query.changelogMode()
                                    + (query.updating()
                                            ? ": rows are updated and deleted in place."
                                            : ": rows are only inserted."));
                }
            }
            case UNKNOWN ->
                    reasons.add("Streaming compatibility was not checked: " + query.detail() + ".");
            case NOT_STREAMABLE -> {
                // already said by the mode decision
            }
        }
    }

    private static RefreshPlan refused(
            TableDefinition table,
            Freshness freshness,
            QueryAnalysis query,
            List<String> reasons,
            Instant now) {
        return RefreshPlanBuilder.builder()
                .table(table.table())
                .definitionVersion(table.version())
                .status(Status.REFUSED)
                .mode(null)
                .freshness(freshness)
                .freshnessDeclared(table.freshness() != null)
                .checkpointInterval(null)
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode(query.changelogMode())
                .upsertKey(null)
                .upstreamTables(upstreamTables(table))
                .reasons(reasons)
                .warnings(List.of())
                .plannedAt(now)
                .build();
    }

    /** The materialized tables the query reads, in the order the definition lists them. */
    static List<String> upstreamTables(TableDefinition table) {
        return table.sources().stream()
                .filter(s -> s.kind() == TableDefinition.Kind.MATERIALIZED_TABLE)
                .map(TableDefinition.SourceTable::table)
                .toList();
    }

    private static Map<String, String> dateFormatters(Map<String, String> options) {
        Map<String, String> formatters = new TreeMap<>();
        options.forEach(
                (key, value) -> {
                    Matcher matcher = DATE_FORMATTER.matcher(key);
                    if (matcher.matches()) {
                        formatters.put(matcher.group(1), value);
                    }
                });
        return formatters;
    }

    /**
     * Half the freshness: a reader's data is as old as the last committed checkpoint's start, so
     * lag peaks at one interval plus the time to take and commit the checkpoint; with the interval
     * at the freshness itself, the lag would exceed the freshness just before every commit.
     */
    static Duration checkpointInterval(Duration freshness) {
        return freshness.dividedBy(2);
    }
}
