package io.mtables.refreshscheduler.domain;

import io.mtables.schemas.plan.RefreshPlan;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;

/**
 * The partition a scheduled refresh overwrites: the period that has just ended, named by the
 * table's date-formatters. A refresh scheduled at 2024-01-02 00:00 with a freshness of 1 day
 * overwrites ds = '2024-01-01', as Flink's own materialized tables do.
 */
public final class PeriodPartition {

    private PeriodPartition() {}

    /**
     * Column to value for the tick at {@code scheduledTime}; empty when the table has no
     * date-formatter.
     */
    public static Map<String, String> of(RefreshPlan plan, Instant scheduledTime, ZoneId zone) {
        Map<String, String> partition = new TreeMap<>();
        if (plan.partitionFormatters().isEmpty()) {
            return partition;
        }
        Instant periodStart = scheduledTime.minus(length(plan.freshness()));
        plan.partitionFormatters()
                .forEach(
                        (column, pattern) ->
                                partition.put(
                                        column,
                                        DateTimeFormatter.ofPattern(pattern)
                                                .withZone(zone)
                                                .format(periodStart)));
        return partition;
    }

    /** The length of one period. */
    public static Duration length(RefreshPlan.Freshness freshness) {
        return Duration.of(freshness.interval(), ChronoUnit.valueOf(freshness.unit() + "S"));
    }
}
