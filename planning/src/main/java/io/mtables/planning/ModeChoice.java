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

  /** The mode, with its reasons added; null when refused (the reasons say why). */
  static Mode choose(TableDefinition table, PlannerSettings settings, QueryAnalysis query, List<String> reasons) {
    if (query.verdict() == QueryAnalysis.Verdict.BLOCKED) {
      reasons.add("Refused: " + query.detail() + ".");
      return null;
    }
    boolean cannotStream = query.verdict() == QueryAnalysis.Verdict.NOT_STREAMABLE;
    boolean cannotBatch = !query.batch().runs();
    if (cannotStream && cannotBatch) {
      reasons.add(
          "Refused: the query runs neither as a stream (Flink: " + query.detail() + ") nor as a batch (Flink: "
              + query.batch().detail() + "). Change the query.");
      return null;
    }
    RefreshMode declared = table.refreshMode();
    if (cannotStream && declared == RefreshMode.CONTINUOUS) {
      reasons.add(
          "Refused: REFRESH_MODE = CONTINUOUS was declared, but the query cannot run as a stream (Flink: " + query.detail()
              + "). Declare REFRESH_MODE = FULL or AUTO, or change the query.");
      return null;
    }
    if (cannotBatch && declared == RefreshMode.FULL) {
      reasons.add(
          "Refused: REFRESH_MODE = FULL was declared, but the query cannot run as a batch (Flink: " + query.batch().detail()
              + "). Declare REFRESH_MODE = CONTINUOUS or AUTO, or read the source through a CONTINUOUS materialized table,"
              + " which batch refreshes can read.");
      return null;
    }
    if (cannotStream) {
      reasons.add("FULL because the query cannot run as a stream (Flink: " + query.detail() + "), whatever the freshness.");
      return Mode.FULL;
    }
    String threshold = Durations.words(settings.freshnessThreshold());
    if (declared == RefreshMode.CONTINUOUS || declared == RefreshMode.FULL) {
      Mode mode = Mode.valueOf(declared.name());
      reasons.add(mode + " because REFRESH_MODE = " + mode + " was declared; a declared mode wins over the freshness threshold (" + threshold + ").");
      return mode;
    }
    Mode byThreshold = byThreshold(table, settings, threshold, reasons);
    if (byThreshold == Mode.FULL && cannotBatch) {
      reasons.add(
          "CONTINUOUS instead: the query cannot run as a batch (Flink: " + query.batch().detail() + "), so it runs as a"
              + " stream, committing at the freshness.");
      return Mode.CONTINUOUS;
    }
    return byThreshold;
  }

  private static Mode byThreshold(TableDefinition table, PlannerSettings settings, String threshold, List<String> reasons) {
    if (table.freshness() == null) {
      Duration fallback = settings.defaultContinuousFreshness();
      Mode mode = fallback.compareTo(settings.freshnessThreshold()) < 0 ? Mode.CONTINUOUS : Mode.FULL;
      reasons.add(
          mode + " because no FRESHNESS was declared and the CONTINUOUS default " + Durations.words(fallback)
              + (mode == Mode.CONTINUOUS ? " is below" : " is not below") + " the threshold " + threshold + ".");
      return mode;
    }
    Duration freshness = Durations.of(new Freshness(table.freshness().interval(), table.freshness().unit()));
    boolean below = freshness.compareTo(settings.freshnessThreshold()) < 0;
    Mode mode = below ? Mode.CONTINUOUS : Mode.FULL;
    reasons.add(
        mode + " because the freshness " + Durations.words(freshness) + (below ? " is below" : " is not below")
            + " the threshold " + threshold + " (materialized-table.refresh-mode.freshness-threshold).");
    return mode;
  }
}
