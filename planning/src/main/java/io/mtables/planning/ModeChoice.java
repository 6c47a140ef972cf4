package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.plan.RefreshPlan.Freshness;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import java.time.Duration;
import java.util.List;

/**
 * The refresh mode: declared, else from the freshness threshold; then what Flink can run. A query
 * that cannot stream is FULL, one that cannot run as a batch is CONTINUOUS, and a declared mode the
 * query cannot run in is refused with Flink's reason.
 */
final class ModeChoice {

    private ModeChoice() {}

    /**
     * The shortest period of FULL refreshes. Each is a Flink batch job (about 0.5 s of fixed cost
     * here, bin/bench refresh-cost) holding a task slot: every few seconds is a storm of jobs that
     * a stream does better. Below it a table streams, or is refused.
     */
    static final Duration MINIMUM_FULL_PERIOD = Duration.ofMinutes(1);

    /** The mode, with its reasons added; null when refused (the reasons say why). */
    static Mode choose(
            TableDefinition table,
            PlannerSettings settings,
            QueryAnalysis query,
            List<String> reasons) {
        Mode mode = chooseByRules(table, settings, query, reasons);
        return mode == Mode.FULL ? noBatchStorm(table, settings, query, reasons) : mode;
    }

    /**
     * FULL, unless its period is shorter than {@link #MINIMUM_FULL_PERIOD}: then CONTINUOUS where
     * the query streams, else refused.
     */
    private static Mode noBatchStorm(
            TableDefinition table,
            PlannerSettings settings,
            QueryAnalysis query,
            List<String> reasons) {
        Duration period =
                table.freshness() == null
                        ? settings.defaultFullFreshness()
                        : Durations.of(
                                new Freshness(
                                        table.freshness().interval(), table.freshness().unit()));
        if (period.compareTo(MINIMUM_FULL_PERIOD) >= 0) {
            return Mode.FULL;
        }
        String storm =
                "a FULL refresh every "
                        + Durations.words(period)
                        + " would start a Flink batch job that often, each recomputing the whole"
                        + " table and holding a task slot; FULL refreshes run at most once a"
                        + " minute";
        if (table.refreshMode() == RefreshMode.FULL) {
            reasons.add(
                    "Refused: "
                            + storm
                            + ". Declare FRESHNESS of 1 MINUTE or more, or REFRESH_MODE ="
                            + " CONTINUOUS or AUTO.");
            return null;
        }
        if (query.verdict() == QueryAnalysis.Verdict.STREAMABLE) {
            reasons.add("CONTINUOUS instead: " + storm + ", and the query runs as a stream.");
            return Mode.CONTINUOUS;
        }
        reasons.add(
                "Refused: "
                        + storm
                        + ", and the query cannot run as a stream ("
                        + (query.detail() == null
                                ? "Flink's planner was not asked"
                                : query.detail())
                        + "). Declare FRESHNESS of 1 MINUTE or more.");
        return null;
    }

    private static Mode chooseByRules(
            TableDefinition table,
            PlannerSettings settings,
            QueryAnalysis query,
            List<String> reasons) {
        if (query.verdict() == QueryAnalysis.Verdict.BLOCKED) {
            reasons.add("Refused: " + query.detail() + ".");
            return null;
        }
        boolean cannotStream = query.verdict() == QueryAnalysis.Verdict.NOT_STREAMABLE;
        boolean cannotBatch = !query.batch().runs();
        if (cannotStream && cannotBatch) {
            reasons.add(
                    "Refused: the query runs neither as a stream (Flink: "
                            + query.detail()
                            + ") nor as a batch (Flink: "
                            + query.batch().detail()
                            + "). Change the query.");
            return null;
        }
        RefreshMode declared = table.refreshMode();
        if (cannotStream && declared == RefreshMode.CONTINUOUS) {
            reasons.add(
                    "Refused: REFRESH_MODE = CONTINUOUS was declared, but the query cannot run as a"
                            + " stream (Flink: "
                            + query.detail()
                            + "). Declare REFRESH_MODE = FULL or AUTO, or change the query.");
            return null;
        }
        if (cannotBatch && declared == RefreshMode.FULL) {
            reasons.add(
                    "Refused: REFRESH_MODE = FULL was declared, but the query cannot run as a batch"
                            + " (Flink: "
                            + query.batch().detail()
                            + "). Declare REFRESH_MODE = CONTINUOUS or AUTO, or read the source"
                            + " through a CONTINUOUS materialized table, which batch refreshes can"
                            + " read.");
            return null;
        }
        if (cannotStream) {
            reasons.add(
                    "FULL because the query cannot run as a stream (Flink: "
                            + query.detail()
                            + "), whatever the freshness.");
            return Mode.FULL;
        }
        String threshold = Durations.words(settings.freshnessThreshold());
        if (declared == RefreshMode.CONTINUOUS || declared == RefreshMode.FULL) {
            Mode mode = Mode.valueOf(declared.name());
            reasons.add(
                    mode
                            + " because REFRESH_MODE = "
                            + mode
                            + " was declared; a declared mode wins over the freshness threshold ("
                            + threshold
                            + ").");
            return mode;
        }
        Mode byThreshold = byThreshold(table, settings, threshold, reasons);
        if (byThreshold == Mode.FULL && cannotBatch) {
            reasons.add(
                    "CONTINUOUS instead: the query cannot run as a batch (Flink: "
                            + query.batch().detail()
                            + "), so it runs as a"
                            + " stream, committing at the freshness.");
            return Mode.CONTINUOUS;
        }
        return byThreshold;
    }

    private static Mode byThreshold(
            TableDefinition table,
            PlannerSettings settings,
            String threshold,
            List<String> reasons) {
        if (table.freshness() == null) {
            Duration fallback = settings.defaultContinuousFreshness();
            Mode mode =
                    fallback.compareTo(settings.freshnessThreshold()) < 0
                            ? Mode.CONTINUOUS
                            : Mode.FULL;
            reasons.add(
                    mode
                            + " because no FRESHNESS was declared and the CONTINUOUS default "
                            + Durations.words(fallback)
                            + (mode == Mode.CONTINUOUS ? " is below" : " is not below")
                            + " the threshold "
                            + threshold
                            + ".");
            return mode;
        }
        Duration freshness =
                Durations.of(new Freshness(table.freshness().interval(), table.freshness().unit()));
        boolean below = freshness.compareTo(settings.freshnessThreshold()) < 0;
        Mode mode = below ? Mode.CONTINUOUS : Mode.FULL;
        reasons.add(
                mode
                        + " because the freshness "
                        + Durations.words(freshness)
                        + (below ? " is below" : " is not below")
                        + " the threshold "
                        + threshold
                        + " (materialized-table.refresh-mode.freshness-threshold).");
        return mode;
    }
}
