package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import io.mtables.schemas.plan.RefreshPlan.Warning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The traps a user would not see in a definition, each with what happens and what to do. */
final class PlanWarnings {

    /** Below this, a checkpoint per freshness period costs more than it gives (seed 001, 6.4). */
    static final Duration CHECKPOINT_COST_FLOOR = Duration.ofSeconds(10);

    private PlanWarnings() {}

    static List<Warning> of(
            TableDefinition table,
            Mode mode,
            Duration freshness,
            UpsertKey key,
            QueryAnalysis query) {
        List<Warning> warnings = new ArrayList<>();
        if (mode == Mode.CONTINUOUS) {
            if (freshness.compareTo(CHECKPOINT_COST_FLOOR) < 0) {
                warnings.add(
                        new Warning(
                                "FreshnessBelowTenSeconds",
                                "A checkpoint every "
                                        + Durations.words(freshness)
                                        + " makes many small snapshots and files and costs CPU on"
                                        + " every job; consider 10 s or more unless the dashboard"
                                        + " really needs it."));
            }
            if (!query.timeFunctions().isEmpty()) {
                warnings.add(
                        new Warning(
                                "CurrentTimeInCondition",
                                "The query filters on "
                                        + String.join(", ", query.timeFunctions())
                                        + ": a stream evaluates it once, when a row arrives, so a"
                                        + " row that passed is never removed as time goes by (a"
                                        + " 'last 24 hours' table keeps every row it ever saw). Use"
                                        + " REFRESH_MODE = FULL, where each refresh evaluates it"
                                        + " again, or a window (TUMBLE, HOP) over an event-time"
                                        + " column."));
            }
            if (!query.statefulOperators().isEmpty()) {
                warnings.add(
                        new Warning(
                                "UnboundedState",
                                "The stream keeps state for its "
                                        + String.join(", ", query.statefulOperators())
                                        + " forever: it grows with the number of distinct keys and"
                                        + " never expires. Where old keys can be forgotten, add a"
                                        + " STATE_TTL hint (rows older than the TTL then stop being"
                                        + " updated); for time series, use a window."));
            }
            if (key != null
                    && key.origin() == UpsertKey.Origin.SYNTHETIC
                    && key.columns().isEmpty()
                    && key.branches() == null
                    && key.emptyInputRow() == null) {
                warnings.add(
                        new Warning(
                                "NoRowWithoutInput",
                                "This table has at most one row (a global aggregate). While its"
                                    + " input has no rows (none yet, or all deleted) the table has"
                                    + " no row at all, where a batch query answers one (COUNT 0,"
                                    + " SUM NULL): a stream keeps no aggregate for an empty input,"
                                    + " and this query's empty answer could not be derived (an"
                                    + " aggregate function or a shape Calcite's reductions do not"
                                    + " know). Read a missing row as that empty answer."));
            }
            if (key != null
                    && key.origin() == UpsertKey.Origin.DECLARED
                    && query.updating()
                    && !KeyChoice.provenUnique(key.columns(), query)) {
                warnings.add(
                        new Warning(
                                "KeyNotProvenUnique",
                                "Flink's planner cannot prove ("
                                        + String.join(", ", key.columns())
                                        + ") unique for this query"
                                        + (query.uniqueKeys() == null
                                                        || query.uniqueKeys().isEmpty()
                                                ? ""
                                                : " (it derives " + keys(query.uniqueKeys()) + ")")
                                        + ": result rows that share the key overwrite each other,"
                                        + " and Flink keeps every row in state to order their"
                                        + " changes. Declare a key that identifies a result row."));
            }
        }
        if (mode == Mode.FULL && !query.latestValueSources().isEmpty()) {
            warnings.add(
                    new Warning(
                            "FullOverLatestValueSource",
                            String.join(", ", query.latestValueSources())
                                    + " hold(s) only the latest value of each row: a FULL refresh"
                                    + " sees rows as they are when it runs, so refreshing an older"
                                    + " partition rewrites it with today's values, and changes"
                                    + " between two refreshes are never seen one by one."));
        }
        return warnings;
    }

    private static String keys(List<List<String>> keys) {
        return String.join(
                " or ", keys.stream().map(k -> "(" + String.join(", ", k) + ")").toList());
    }
}
