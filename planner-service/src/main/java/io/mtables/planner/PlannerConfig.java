package io.mtables.planner;

import io.mtables.planning.PlannerSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.time.ZoneId;

/**
 * The planner's options, under Flink's own names (users need no translation), with the defaults
 * ddl-service has too ({@link PlannerSettings}'s).
 */
@ConfigMapping(prefix = "materialized-table")
public interface PlannerConfig {

    /** Below this freshness an AUTO table is CONTINUOUS, else FULL. */
    @WithName("refresh-mode.freshness-threshold")
    @WithDefault(PlannerSettings.FRESHNESS_THRESHOLD_DEFAULT)
    Duration freshnessThreshold();

    /** The freshness of a CONTINUOUS table that declares none. */
    @WithName("default-freshness.continuous")
    @WithDefault(PlannerSettings.CONTINUOUS_FRESHNESS_DEFAULT)
    Duration defaultContinuousFreshness();

    /** The freshness of a FULL table that declares none. */
    @WithName("default-freshness.full")
    @WithDefault(PlannerSettings.FULL_FRESHNESS_DEFAULT)
    Duration defaultFullFreshness();

    /**
     * These options, with the time zone of periods ({@code mt.planner.time-zone}, not one of
     * Flink's).
     */
    default PlannerSettings settings(ZoneId timeZone) {
        return new PlannerSettings(
                freshnessThreshold(),
                defaultContinuousFreshness(),
                defaultFullFreshness(),
                timeZone);
    }
}
