package io.mtables.ddl.history;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.FreshnessMissed;
import io.mtables.schemas.refresh.FreshnessRestored;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One row of {@code information_schema.refresh_history}: what became of one refresh, or a freshness
 * episode's start or end, or a suspension, as the events on {@code mt.refresh.events} say.
 *
 * @param table the fully qualified identifier
 * @param eventId the event's position ({@code <partition>@<offset>}): a row is written once however
 *     often its event is read
 * @param definitionVersion the definition version concerned
 * @param trigger SCHEDULED, MANUAL, UPSTREAM, CATCH_UP, CONTINUOUS; null when not known
 * @param state SUCCEEDED, NO_DATA, FAILED, SUSPENDED, FRESHNESS_MISSED or FRESHNESS_RESTORED
 * @param stateMessage what happened, in words (the failure, the partitions written, the lag)
 * @param scheduledTime the time the refresh was for (a FULL tick's), else null
 * @param dataTimestamp the table held every change up to this time afterwards; null for failures
 * @param startedAt when the refresh was taken up; null when not a refresh
 * @param finishedAt when it ended, or when the event happened
 * @param rowsWritten rows written (FULL) or added (CONTINUOUS); null when not a refresh
 * @param snapshotId the Paimon snapshot the data is in; null when none
 * @param freshness the table's freshness when known (the freshness alerts carry it), else null
 * @param freshnessMet whether the table was within that freshness when the refresh ended
 */
public record HistoryEntry(
        String table,
        String eventId,
        long definitionVersion,
        String trigger,
        String state,
        String stateMessage,
        Instant scheduledTime,
        Instant dataTimestamp,
        Instant startedAt,
        Instant finishedAt,
        Long rowsWritten,
        Long snapshotId,
        Duration freshness,
        Boolean freshnessMet) {

    /**
     * A refresh that succeeded (or found nothing to do), against the table's freshness if known.
     */
    static HistoryEntry of(String eventId, RefreshSucceeded event, Duration freshness) {
        boolean noData = event.outcome() == RefreshSucceeded.Outcome.NO_DATA;
        String message = noData ? "nothing changed since the last refresh" : "written";
        if (event.changedPartitions() != null) {
            message =
                    event.changedPartitions().isEmpty()
                            ? "no partition's inputs changed"
                            : "partitions whose inputs changed: " + partitions(event);
        } else if (event.partition() != null && !event.partition().isEmpty()) {
            message = message + " (partition " + event.partition() + ")";
        }
        Boolean met =
                freshness == null || event.dataTimestamp() == null
                        ? null
                        : Duration.between(event.dataTimestamp(), event.finishedAt())
                                        .compareTo(freshness)
                                <= 0;
        boolean full = event.mode() == RefreshPlan.Mode.FULL;
        return new HistoryEntry(
                event.table(),
                eventId,
                event.definitionVersion(),
                event.trigger(),
                noData ? "NO_DATA" : "SUCCEEDED",
                message,
                full ? event.dataTimestamp() : null,
                event.dataTimestamp(),
                event.startedAt(),
                event.finishedAt(),
                event.rowsWritten(),
                event.snapshotId(),
                freshness,
                met);
    }

    static HistoryEntry of(String eventId, RefreshFailed event) {
        return new HistoryEntry(
                event.table(),
                eventId,
                event.definitionVersion(),
                event.trigger(),
                "FAILED",
                event.reason() + " (" + event.consecutiveFailures() + " in a row)",
                event.scheduledTime(),
                null,
                null,
                event.failedAt(),
                null,
                null,
                null,
                null);
    }

    static HistoryEntry of(String eventId, Suspended event) {
        return new HistoryEntry(
                event.table(),
                eventId,
                event.definitionVersion(),
                null,
                "SUSPENDED",
                event.reason(),
                null,
                null,
                null,
                event.suspendedAt(),
                null,
                null,
                null,
                null);
    }

    static HistoryEntry of(String eventId, FreshnessMissed event) {
        return new HistoryEntry(
                event.table(),
                eventId,
                event.definitionVersion(),
                null,
                "FRESHNESS_MISSED",
                "behind its freshness "
                        + event.freshness()
                        + " since "
                        + event.behindSince()
                        + ": lag "
                        + event.lag(),
                null,
                event.dataTimestamp(),
                null,
                event.detectedAt(),
                null,
                null,
                event.freshness(),
                false);
    }

    static HistoryEntry of(String eventId, FreshnessRestored event) {
        return new HistoryEntry(
                event.table(),
                eventId,
                event.definitionVersion(),
                null,
                "FRESHNESS_RESTORED",
                "within its freshness "
                        + event.freshness()
                        + " again (behind since "
                        + event.behindSince()
                        + "): lag "
                        + event.lag(),
                null,
                event.dataTimestamp(),
                null,
                event.restoredAt(),
                null,
                null,
                event.freshness(),
                true);
    }

    private static String partitions(RefreshSucceeded event) {
        return event.changedPartitions().stream()
                .map(Map::toString)
                .collect(Collectors.joining(", "));
    }
}
