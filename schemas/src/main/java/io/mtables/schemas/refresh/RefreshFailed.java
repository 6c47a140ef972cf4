package io.mtables.schemas.refresh;

import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;

/**
 * A refresh or a job of a table failed ({@code RefreshFailed.v1} on {@code mt.refresh.events},
 * keyed by {@link #table}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version that failed
 * @param mode CONTINUOUS or FULL
 * @param jobId Flink's job id; null when the job could not even be submitted
 * @param reason what failed, in Flink's words where it has them
 * @param consecutiveFailures failures in a row, this one included; at the limit the table is
 *     suspended
 * @param failedAt when the failure was seen
 * @param scheduledTime FULL: the scheduled time of the tick whose refresh failed, so tables waiting
 *     for this one's refresh of that period go ahead; null otherwise
 * @param trigger what the failed refresh was for: SCHEDULED, MANUAL, UPSTREAM or CATCH_UP (a FULL
 *     refresh's tick), CONTINUOUS (a streaming job); null when not known (older events, a failure
 *     outside any refresh)
 */
public record RefreshFailed(
        String table,
        long definitionVersion,
        RefreshPlan.Mode mode,
        String jobId,
        String reason,
        int consecutiveFailures,
        Instant failedAt,
        Instant scheduledTime,
        String trigger) {

    /** A failure whose trigger is not told. */
    public RefreshFailed(
            String table,
            long definitionVersion,
            RefreshPlan.Mode mode,
            String jobId,
            String reason,
            int consecutiveFailures,
            Instant failedAt,
            Instant scheduledTime) {
        this(
                table,
                definitionVersion,
                mode,
                jobId,
                reason,
                consecutiveFailures,
                failedAt,
                scheduledTime,
                null);
    }
}
