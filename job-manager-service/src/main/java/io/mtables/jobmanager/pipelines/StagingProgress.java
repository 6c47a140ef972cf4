package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.flink.SourceProgress;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.refresh.LoadProgress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SortedMap;
import org.jboss.logging.Logger;

/**
 * How far a switch-over's staging job has read ({@link SwitchOvers}), from Flink's source metrics
 * and checkpoints: caught up with its sources before the old job stops, and having read everything
 * since once it has stopped. Until it has caught up, how far it is goes out as {@code LoadProgress}
 * of its own job and version (the rebuild's progress), every {@link SourceLoads#LOAD_REPORT_EVERY},
 * and a last time once caught up.
 */
final class StagingProgress {

    private static final Logger LOG = Logger.getLogger(StagingProgress.class);

    private final FlinkTarget flink;
    private final PaimonSnapshots snapshots;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final Clock clock;

    StagingProgress(
            FlinkTarget flink,
            PaimonSnapshots snapshots,
            JobManagerConfig config,
            PipelineReports reports,
            Clock clock) {
        this.flink = flink;
        this.snapshots = snapshots;
        this.config = config;
        this.reports = reports;
        this.clock = clock;
    }

    /**
     * Caught up: the sources had nothing left to read at some moment, and a checkpoint triggered
     * after it completed (so the staged table holds all they had). Sources that cannot say (a
     * Paimon table read by a chain) are caught up when a completed checkpoint committed nothing
     * new: the job had nothing left to write.
     */
    boolean caughtUp(Pipeline pipeline, Pipeline.Staging staging) {
        Optional<SourceProgress> progress = flink.sourceProgress(staging.jobId);
        boolean caughtUp = caughtUp(pipeline, staging, progress);
        progress.ifPresent(seen -> reportLoad(pipeline, staging, seen, caughtUp));
        return caughtUp;
    }

    private boolean caughtUp(
            Pipeline pipeline, Pipeline.Staging staging, Optional<SourceProgress> progress) {
        SortedMap<Long, Instant> checkpoints = flink.completedCheckpoints(staging.jobId);
        Instant now = clock.instant();
        if (progress.isPresent()) {
            if (progress.get().pendingRecords() > 0) {
                staging.sourcesReadAt = null;
                return false;
            }
            if (staging.sourcesReadAt == null) {
                staging.sourcesReadAt = now;
                return false;
            }
            return checkpoints.values().stream()
                    .anyMatch(triggered -> triggered.isAfter(staging.sourcesReadAt));
        }
        if (now.isBefore(staging.since.plus(config.jobs().silentSourcePatience()))
                || checkpoints.isEmpty()) {
            return false;
        }
        long committed =
                snapshots
                        .latest(JobSql.stagedTable(pipeline.table, staging.version))
                        .map(PaimonSnapshots.CommittedSnapshot::commitIdentifier)
                        .orElse(0L);
        return checkpoints.lastKey() > committed + 1;
    }

    /**
     * The rebuild's progress: how far the staging job is through its sources, reported as the load
     * of its own job and version (the old job's, if it still loads, goes on as its own).
     */
    private void reportLoad(
            Pipeline pipeline,
            Pipeline.Staging staging,
            SourceProgress progress,
            boolean caughtUp) {
        Instant now = clock.instant();
        if (staging.loadOver
                || !caughtUp
                        && staging.loadReportedAt != null
                        && now.isBefore(
                                staging.loadReportedAt.plus(SourceLoads.LOAD_REPORT_EVERY))) {
            return;
        }
        try {
            reports.events()
                    .loadProgress(
                            new LoadProgress(
                                    pipeline.table,
                                    staging.version,
                                    staging.jobId,
                                    caughtUp ? 0 : progress.pendingRecords(),
                                    progress.recordsRead(),
                                    caughtUp,
                                    now));
        } catch (RuntimeException e) {
            // Never in the switch-over's way: tried again at the next look. A last one lost is no
            // loss: the switch's own events (SwitchedOver) end the rebuild's progress.
            LOG.debugf(
                    "the rebuild's progress of %s was not reported: %s",
                    pipeline.table, PipelineReports.rootMessage(e));
            return;
        }
        staging.loadReportedAt = now;
        staging.loadOver = caughtUp;
    }

    /**
     * Waits until Flink's job metrics can be as new as {@code since}, when that comes sooner than
     * the next look: readers wait for the switch, and a look is a second away (the embedded
     * cluster's metrics interval is 250 ms). A longer interval (a remote cluster's) is left to the
     * looks, the control thread not held for it.
     */
    void awaitMetricsAfter(Instant since) {
        Duration left = Duration.between(clock.instant(), since.plus(flink.metricsInterval()));
        if (left.isNegative() || left.compareTo(config.flink().pollInterval()) >= 0) {
            return;
        }
        try {
            Thread.sleep(left.toMillis() + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the staging job's sources had nothing left to read at a moment after {@code since}:
     * then every change written before it is read. Flink's metrics may be as old as its metrics
     * interval, so a value is trusted only that long after {@code since}. Sources that cannot say
     * are taken to have read it (they were caught up before).
     */
    boolean readEverythingSince(Pipeline.Staging staging, Instant since) {
        if (clock.instant().isBefore(since.plus(flink.metricsInterval()))) {
            return false;
        }
        return flink.sourceProgress(staging.jobId)
                .map(progress -> progress.pendingRecords() == 0)
                .orElse(true);
    }
}
