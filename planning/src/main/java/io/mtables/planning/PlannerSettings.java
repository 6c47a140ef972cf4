package io.mtables.planning;

import java.time.Duration;

/**
 * The planner's knobs, with Flink's names and defaults.
 *
 * @param freshnessThreshold {@code materialized-table.refresh-mode.freshness-threshold}: an AUTO
 *     table whose freshness is below it is CONTINUOUS, else FULL (30 min)
 * @param defaultContinuousFreshness {@code materialized-table.default-freshness.continuous} (3 min)
 * @param defaultFullFreshness {@code materialized-table.default-freshness.full} (1 h)
 */
public record PlannerSettings(
    Duration freshnessThreshold, Duration defaultContinuousFreshness, Duration defaultFullFreshness) {

  /** Flink's defaults. */
  public static PlannerSettings defaults() {
    return new PlannerSettings(Duration.ofMinutes(30), Duration.ofMinutes(3), Duration.ofHours(1));
  }
}
