package io.mtables.planner.domain;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Freshness;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.Status;
import io.mtables.schemas.plan.RefreshPlan.Warning;
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
 * the default of the mode. Every decision is written down as a reason.
 */
public final class RefreshModeRules {

  /** Below this, a checkpoint per freshness period costs more than it gives (seed 001, 6.4). */
  static final Duration CHECKPOINT_COST_FLOOR = Duration.ofSeconds(10);

  private static final Pattern DATE_FORMATTER = Pattern.compile("^partition\\.fields\\.(.+)\\.date-formatter$");

  private RefreshModeRules() {}

  /**
   * The plan for one version of a materialized table.
   *
   * @param streaming what Flink's planner said about running the query as a stream
   */
  public static RefreshPlan plan(TableDefinition table, PlannerSettings settings, StreamingAnalysis streaming, Instant now) {
    List<String> reasons = new ArrayList<>();
    List<Warning> warnings = new ArrayList<>();
    String threshold = Durations.words(settings.freshnessThreshold());
    if (streaming.verdict() == StreamingAnalysis.Verdict.NOT_STREAMABLE && table.refreshMode() == TableDefinition.RefreshMode.CONTINUOUS) {
      reasons.add(
          "Refused: REFRESH_MODE = CONTINUOUS was declared, but the query cannot run as a stream (Flink: " + streaming.detail()
              + "). Declare REFRESH_MODE = FULL or AUTO, or change the query.");
      return refused(table, reasons, warnings, now);
    }
    Mode mode =
        streaming.verdict() == StreamingAnalysis.Verdict.NOT_STREAMABLE && table.refreshMode() == TableDefinition.RefreshMode.AUTO
            ? streamingFallback(streaming, reasons)
            : mode(table, settings, threshold, reasons);
    describeStreaming(mode, streaming, reasons);
    boolean declared = table.freshness() != null;
    Duration freshness =
        declared
            ? Durations.of(new Freshness(table.freshness().interval(), table.freshness().unit()))
            : mode == Mode.CONTINUOUS ? settings.defaultContinuousFreshness() : settings.defaultFullFreshness();
    if (!declared) {
      reasons.add(
          "No FRESHNESS was declared: the " + mode + " default " + Durations.words(freshness) + " applies"
              + " (materialized-table.default-freshness." + (mode == Mode.CONTINUOUS ? "continuous" : "full") + ").");
    }
    Duration checkpoint = null;
    String cron = null;
    Map<String, String> formatters = new TreeMap<>();
    if (mode == Mode.CONTINUOUS) {
      checkpoint = freshness;
      reasons.add(
          "Checkpoint every " + Durations.words(freshness) + ": each checkpoint commits a snapshot, so a change is"
              + " readable within about " + Durations.words(freshness) + ".");
      if (freshness.compareTo(CHECKPOINT_COST_FLOOR) < 0) {
        warnings.add(
            new Warning(
                "FreshnessBelowTenSeconds",
                "A checkpoint every " + Durations.words(freshness) + " makes many small snapshots and files and costs"
                    + " CPU on every job; consider 10 s or more unless the dashboard really needs it."));
      }
    } else {
      Freshness f = Durations.freshnessOf(freshness);
      try {
        cron = IntervalFreshness.convertFreshnessToCron(
            IntervalFreshness.of(String.valueOf(f.interval()), IntervalFreshness.TimeUnit.valueOf(f.unit())));
      } catch (RuntimeException e) {
        reasons.add(
            "Refused: FULL needs a freshness that is a cron period, and " + Durations.words(freshness) + " is not ("
                + e.getMessage() + "). Allowed: SECOND or MINUTE 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30; HOUR 1, 2, 3,"
                + " 4, 6, 8, 12; DAY 1.");
        return new RefreshPlan(table.table(), table.version(), Status.REFUSED, null, f, declared, null, null, Map.of(), streaming.changelogMode(), reasons, warnings, now);
      }
      reasons.add("Refresh on the cron '" + cron + "' (every " + Durations.words(freshness) + ").");
      formatters.putAll(dateFormatters(table.options()));
      if (!formatters.isEmpty()) {
        formatters.forEach(
            (column, pattern) ->
                reasons.add(
                    "Each scheduled refresh overwrites only the partition " + column + " = its scheduled time formatted"
                        + " '" + pattern + "'; other partitions change only with ALTER ... REFRESH PARTITION."));
      } else {
        reasons.add("Each scheduled refresh overwrites the whole table.");
      }
    }
    Status status = table.status() == TableDefinition.Status.SUSPENDED ? Status.SUSPENDED : Status.ACTIVE;
    if (status == Status.SUSPENDED) {
      reasons.add("Suspended: no job runs and no refresh is scheduled until ALTER ... RESUME.");
    }
    return new RefreshPlan(
        table.table(), table.version(), status, mode, Durations.freshnessOf(freshness), declared, checkpoint, cron,
        formatters, streaming.changelogMode(), reasons, warnings, now);
  }

  private static Mode streamingFallback(StreamingAnalysis streaming, List<String> reasons) {
    reasons.add("FULL because the query cannot run as a stream (Flink: " + streaming.detail() + "), whatever the freshness.");
    return Mode.FULL;
  }

  private static void describeStreaming(Mode mode, StreamingAnalysis streaming, List<String> reasons) {
    switch (streaming.verdict()) {
      case STREAMABLE ->
          reasons.add(
              "Flink's planner runs the query as a stream with the changelog " + streaming.changelogMode()
                  + (streaming.updating()
                      ? ": rows are updated and deleted in place, so the table is written as upserts on a key."
                      : ": rows are only inserted."));
      case UNKNOWN -> reasons.add("Streaming compatibility was not checked: " + streaming.detail() + ".");
      case NOT_STREAMABLE -> {
        // already said by the mode decision
      }
    }
  }

  private static RefreshPlan refused(TableDefinition table, List<String> reasons, List<Warning> warnings, Instant now) {
    return new RefreshPlan(table.table(), table.version(), Status.REFUSED, null, null, table.freshness() != null, null, null, Map.of(), null, reasons, warnings, now);
  }

  private static Mode mode(TableDefinition table, PlannerSettings settings, String threshold, List<String> reasons) {
    if (table.refreshMode() == TableDefinition.RefreshMode.CONTINUOUS || table.refreshMode() == TableDefinition.RefreshMode.FULL) {
      Mode declared = Mode.valueOf(table.refreshMode().name());
      reasons.add(declared + " because REFRESH_MODE = " + declared + " was declared; a declared mode wins over the freshness threshold (" + threshold + ").");
      return declared;
    }
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
}
