package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.jboss.logging.Logger;

/**
 * What a pipeline's outcomes are reported as: new snapshots, and failures counted up to suspension.
 */
final class PipelineReports {

    private static final Logger LOG = Logger.getLogger(PipelineReports.class);

    /**
     * How long a completed checkpoint may wait for its snapshot before it is taken to have none.
     */
    static final Duration COMMIT_GRACE = Duration.ofSeconds(1);

    /**
     * How long a new snapshot waits for its checkpoint to show in Flink's statistics before it is
     * reported with its commit time.
     */
    static final Duration STATISTICS_PATIENCE = Duration.ofSeconds(5);

    /**
     * How long a job's first snapshot waits for a first answer about its sources' lag: Flink's
     * default metrics.fetcher.update-interval (10 s) and a margin. Sources that never answer (a
     * chain's Paimon table) are reported with the trigger time after it.
     */
    static final Duration SOURCES_PATIENCE = Duration.ofSeconds(15);

    /** The trigger of a streaming job's commits and failures. */
    static final String CONTINUOUS = "CONTINUOUS";

    private final RefreshEvents events;
    private final PaimonSnapshots snapshots;
    private final JobManagerConfig config;
    private final Clock clock;

    PipelineReports(
            RefreshEvents events, PaimonSnapshots snapshots, JobManagerConfig config, Clock clock) {
        this.events = events;
        this.snapshots = snapshots;
        this.config = config;
        this.clock = clock;
    }

    RefreshEvents events() {
        return events;
    }

    /** Reports the table's latest snapshot if it is new; whether it was. */
    boolean newSnapshot(
            Pipeline pipeline,
            Mode mode,
            Map<String, String> partition,
            Instant startedAt,
            Instant dataTimestamp,
            String jobId) {
        return newSnapshot(
                pipeline,
                mode,
                partition,
                startedAt,
                dataTimestamp,
                jobId,
                null,
                null,
                mode == Mode.CONTINUOUS ? CONTINUOUS : null);
    }

    /**
     * The same, with what a FULL refresh covered and the rows it wrote (both null for a streaming
     * commit, whose snapshot's own count is its rows), and what it was for.
     */
    boolean newSnapshot(
            Pipeline pipeline,
            Mode mode,
            Map<String, String> partition,
            Instant startedAt,
            Instant dataTimestamp,
            String jobId,
            Pipeline.RefreshScope scope,
            Long rowsWritten,
            String trigger) {
        return newSnapshot(
                pipeline,
                snapshots.latest(pipeline.table),
                mode,
                partition,
                startedAt,
                dataTimestamp,
                jobId,
                scope,
                rowsWritten,
                trigger);
    }

    /** The same, for a latest snapshot already read. */
    private boolean newSnapshot(
            Pipeline pipeline,
            Optional<PaimonSnapshots.CommittedSnapshot> latest,
            Mode mode,
            Map<String, String> partition,
            Instant startedAt,
            Instant dataTimestamp,
            String jobId,
            Pipeline.RefreshScope scope,
            Long rowsWritten,
            String trigger) {
        if (latest.isEmpty()
                || latest.get().id() <= pipeline.lastSnapshotId
                || latest.get().kind().equals("COMPACT")) {
            return false;
        }
        var snapshot = latest.get();
        Instant previous =
                pipeline.lastSnapshotAt == null ? snapshot.committedAt() : pipeline.lastSnapshotAt;
        events.succeeded(
                new RefreshSucceeded(
                        pipeline.table,
                        pipeline.definition.version(),
                        mode,
                        partition,
                        snapshot.id(),
                        rowsWritten == null ? snapshot.rowsAdded() : rowsWritten,
                        startedAt == null ? previous : startedAt,
                        snapshot.committedAt(),
                        dataTimestamp == null ? snapshot.committedAt() : dataTimestamp,
                        jobId,
                        RefreshSucceeded.Outcome.REFRESHED,
                        scope == null ? null : scope.inputSnapshots(),
                        scope == null ? null : scope.changedPartitions(),
                        trigger));
        // Only once it is reported: a report that failed finds the snapshot new again at the next
        // look.
        pipeline.lastSnapshotId = snapshot.id();
        pipeline.lastSnapshotAt = snapshot.committedAt();
        return true;
    }

    /**
     * A streaming job's progress. A new snapshot is reported with its checkpoint's trigger time as
     * its data timestamp (the job's sources had read every change before it), less how far behind
     * the sources were then when they had changes left to read ({@link SourceLag}). A checkpoint
     * that committed nothing (no change came) is reported as NO_DATA once no snapshot has come for
     * it for {@link #COMMIT_GRACE}, so a commit still on its way is not taken for none: the table
     * is as fresh as that checkpoint.
     *
     * @param checkpoints the job's recently completed checkpoints, id to trigger time
     */
    void streamingProgress(Pipeline pipeline, String jobId, SortedMap<Long, Instant> checkpoints) {
        if (!jobId.equals(pipeline.progressJobId)) {
            pipeline.progressJobId = jobId;
            pipeline.lastCheckpointReported = 0;
            pipeline.quietCheckpoint = null;
        }
        var latest = snapshots.latest(pipeline.table);
        if (latest.isEmpty()) {
            return; // an empty table: nothing is readable to be fresh about
        }
        var snapshot = latest.get();
        Instant triggered = checkpoints.get(snapshot.commitIdentifier());
        Instant dataTimestamp =
                triggered == null ? null : pipeline.sourceLag.dataTimestamp(triggered);
        boolean statisticsBehind =
                triggered == null
                        && (checkpoints.isEmpty()
                                || checkpoints.lastKey() < snapshot.commitIdentifier());
        if (statisticsBehind
                && snapshot.id() > pipeline.lastSnapshotId
                && clock.instant().isBefore(snapshot.committedAt().plus(STATISTICS_PATIENCE))) {
            // Flink's REST API caches checkpoint statistics (web.refresh-interval, 3 s by default):
            // the checkpoint of a fresh commit may not be listed yet. Asked again at the next look.
            return;
        }
        if (triggered != null
                && pipeline.sourceLag.isEmpty()
                && !pipeline.sourcesSilent
                && snapshot.id() > pipeline.lastSnapshotId
                && clock.instant().isBefore(snapshot.committedAt().plus(SOURCES_PATIENCE))) {
            // No look at the job's sources has answered yet (Flink's metrics come seconds after a
            // start): reported now, the snapshot would claim its trigger time though the sources
            // may be an hour behind (seen in SourceLagIT). Asked again at the next look.
            return;
        }
        if (newSnapshot(
                        pipeline,
                        latest,
                        Mode.CONTINUOUS,
                        Map.of(),
                        pipeline.lastSnapshotAt,
                        dataTimestamp,
                        jobId,
                        null,
                        null,
                        CONTINUOUS)
                && triggered != null) {
            pipeline.lastCheckpointReported =
                    Math.max(pipeline.lastCheckpointReported, snapshot.commitIdentifier());
        }
        Instant now = clock.instant();
        var quiet = pipeline.quietCheckpoint;
        if (quiet != null
                && quiet.id() > pipeline.lastCheckpointReported
                && pipeline.lastSnapshotId == quiet.snapshotIdWhenSeen()
                && !now.isBefore(quiet.seenAt().plus(COMMIT_GRACE))) {
            pipeline.lastCheckpointReported = quiet.id();
            events.succeeded(
                    new RefreshSucceeded(
                            pipeline.table,
                            pipeline.definition.version(),
                            Mode.CONTINUOUS,
                            Map.of(),
                            pipeline.lastSnapshotId,
                            0,
                            quiet.triggeredAt(),
                            now,
                            pipeline.sourceLag.dataTimestamp(quiet.triggeredAt()),
                            jobId,
                            RefreshSucceeded.Outcome.NO_DATA,
                            null,
                            null,
                            CONTINUOUS));
        }
        if (checkpoints.isEmpty() || checkpoints.lastKey() <= pipeline.lastCheckpointReported) {
            pipeline.quietCheckpoint = null;
        } else if (quiet == null
                || quiet.id() <= pipeline.lastCheckpointReported
                || pipeline.lastSnapshotId != quiet.snapshotIdWhenSeen()) {
            // A newer checkpoint does not replace one still waiting out its grace: it would never
            // be reported.
            pipeline.quietCheckpoint =
                    new Pipeline.QuietCheckpoint(
                            checkpoints.lastKey(),
                            checkpoints.get(checkpoints.lastKey()),
                            pipeline.lastSnapshotId,
                            now);
        }
    }

    /**
     * A FULL refresh that committed nothing new (Paimon skips an empty commit) still succeeded: the
     * table is as fresh as its scheduled time, and tables waiting for it go ahead.
     */
    void unchanged(
            Pipeline pipeline,
            Pipeline.Refresh refresh,
            String jobId,
            Pipeline.RefreshScope scope) {
        var latest = snapshots.latest(pipeline.table);
        if (latest.isEmpty()) {
            LOG.warnf(
                    "refresh %s of %s finished but the table has no snapshot to report",
                    refresh.id(), pipeline.table);
            return;
        }
        Instant now = clock.instant();
        events.succeeded(
                new RefreshSucceeded(
                        pipeline.table,
                        pipeline.definition.version(),
                        Mode.FULL,
                        refresh.partition(),
                        latest.get().id(),
                        0,
                        pipeline.refreshStartedAt == null ? now : pipeline.refreshStartedAt,
                        now,
                        refresh.dataTimestamp(),
                        jobId,
                        RefreshSucceeded.Outcome.REFRESHED,
                        scope == null ? null : scope.inputSnapshots(),
                        scope == null ? null : scope.changedPartitions(),
                        refresh.reason().name()));
    }

    /**
     * A FULL refresh that ran no job: its inputs are where the last successful refresh of the same
     * partition left them, so the table already holds its answer, as fresh as the refresh's time.
     */
    void noData(
            Pipeline pipeline,
            Pipeline.Refresh refresh,
            long snapshotId,
            Map<String, Long> inputs,
            Instant startedAt) {
        events.succeeded(
                new RefreshSucceeded(
                        pipeline.table,
                        pipeline.definition.version(),
                        Mode.FULL,
                        refresh.partition(),
                        snapshotId,
                        0,
                        startedAt,
                        clock.instant(),
                        refresh.dataTimestamp(),
                        null,
                        RefreshSucceeded.Outcome.NO_DATA,
                        inputs,
                        null,
                        refresh.reason().name()));
    }

    /**
     * A one-off failure of a streaming table that does not count towards suspension (the job keeps
     * running, or the plan says why).
     */
    void notice(Pipeline pipeline, String jobId, String reason) {
        events.failed(
                new RefreshFailed(
                        pipeline.table,
                        pipeline.plan.definitionVersion(),
                        Mode.CONTINUOUS,
                        jobId,
                        reason,
                        1,
                        clock.instant(),
                        null));
    }

    /**
     * Counts a failure; at the limit the table is suspended with the reason.
     *
     * @param refresh the FULL refresh that failed, or null
     */
    void failed(Pipeline pipeline, String jobId, String reason, Pipeline.Refresh refresh) {
        int inARow = pipeline.consecutiveFailures + 1;
        long version = pipeline.plan == null ? 0 : pipeline.plan.definitionVersion();
        Mode mode =
                pipeline.plan == null || pipeline.plan.mode() == null
                        ? Mode.FULL
                        : pipeline.plan.mode();
        Instant scheduledTime = refresh == null ? null : refresh.dataTimestamp();
        String trigger =
                refresh != null
                        ? refresh.reason().name()
                        : mode == Mode.CONTINUOUS ? CONTINUOUS : null;
        events.failed(
                new RefreshFailed(
                        pipeline.table,
                        version,
                        mode,
                        jobId,
                        reason,
                        inARow,
                        clock.instant(),
                        scheduledTime,
                        trigger));
        pipeline.consecutiveFailures =
                inARow; // counted once reported: a report tried again counts once
        LOG.warnf("%s: %s (%d in a row)", pipeline.table, reason, pipeline.consecutiveFailures);
        if (pipeline.consecutiveFailures >= config.jobs().maxConsecutiveFailures()) {
            pipeline.on(TableLifecycle.Event.TOO_MANY_FAILURES);
            pipeline.refreshWaiting = null;
            events.suspended(
                    new Suspended(
                            pipeline.table,
                            version,
                            pipeline.consecutiveFailures
                                    + " failures in a row; the last: "
                                    + reason
                                    + ". ALTER MATERIALIZED TABLE ... RESUME runs it again.",
                            null,
                            clock.instant(),
                            Suspended.Cause.FAILURES));
        } else {
            pipeline.on(TableLifecycle.Event.FAILED);
        }
    }

    static String rootMessage(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        String message =
                deepest.getMessage() == null
                        ? deepest.getClass().getSimpleName()
                        : deepest.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
