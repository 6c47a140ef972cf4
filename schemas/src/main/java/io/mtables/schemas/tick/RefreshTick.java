package io.mtables.schemas.tick;

import java.time.Instant;
import java.util.Map;

/**
 * Time for one FULL refresh of a table ({@code RefreshTick.v1} on {@code mt.refresh.ticks}, keyed
 * by {@link #table}).
 *
 * @param table the fully qualified identifier
 * @param planVersion the definition version of the plan the tick was scheduled for; the job manager
 *     ignores ticks of older plans
 * @param scheduledTime the period boundary the tick stands for (for MANUAL, when it was asked)
 * @param partition the partition to overwrite (column to value, the scheduled time formatted with
 *     the table's date-formatter); empty for the whole table
 * @param reason SCHEDULED (a period boundary), MANUAL (ALTER ... REFRESH), CATCH_UP (the one tick
 *     after downtime) or UPSTREAM (an upstream table refreshed)
 * @param tickId unique per tick, so a redelivered tick is recognised
 */
public record RefreshTick(
        String table,
        long planVersion,
        Instant scheduledTime,
        Map<String, String> partition,
        Reason reason,
        String tickId) {

    /** Why the tick fired. */
    public enum Reason {
        SCHEDULED,
        MANUAL,
        CATCH_UP,
        UPSTREAM
    }
}
