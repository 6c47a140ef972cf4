package io.mtables.planning;

import java.time.Duration;
import java.time.ZoneId;

/**
 * The planner's knobs, with Flink's names and defaults.
 *
 * @param freshnessThreshold {@code materialized-table.refresh-mode.freshness-threshold}: an AUTO
 *     table whose freshness is below it is CONTINUOUS, else FULL (30 min)
 * @param defaultContinuousFreshness {@code materialized-table.default-freshness.continuous} (3 min)
 * @param defaultFullFreshness {@code materialized-table.default-freshness.full} (1 h)
 * @param timeZone {@code mt.planner.time-zone} (UTC): where a FULL table's periods begin and end
 *     (its cron and partition values), written into its plan
 */
public record PlannerSettings(
        Duration freshnessThreshold,
        Duration defaultContinuousFreshness,
        Duration defaultFullFreshness,
        ZoneId timeZone) {

    /** The default time zone of periods. */
    public static final ZoneId UTC = ZoneId.of("UTC");

    /** Periods in UTC. */
    public PlannerSettings(
            Duration freshnessThreshold,
            Duration defaultContinuousFreshness,
            Duration defaultFullFreshness) {
        this(freshnessThreshold, defaultContinuousFreshness, defaultFullFreshness, UTC);
    }

    /** Flink's defaults, periods in UTC. */
    public static PlannerSettings defaults() {
        return new PlannerSettings(
                Duration.ofMinutes(30), Duration.ofMinutes(3), Duration.ofHours(1));
    }
}
