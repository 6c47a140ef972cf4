package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.schemas.tick.TickIds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * FULL refreshes: at most one per table at a time; a refresh asked for while one runs waits, the
 * newest only, the others coalesced into it. Each reads its Paimon inputs at pinned snapshots and
 * records them; one whose inputs did not change since the last success of the same partition runs
 * no job (NO_DATA) when the plan allows it. Watches the refresh job to its end.
 */
final class FullRefreshes {

    private static final Logger LOG = Logger.getLogger(FullRefreshes.class);

    /** How many looks at an ended refresh job may fail to report it before it counts as failed. */
    static final int END_REPORT_ATTEMPTS = 5;

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final PaimonSnapshots snapshots;
    private final PaimonPartitions partitions;
    private final RefreshScopes scopes;
    private final FullRefreshProgress progress;
    private final Clock clock;

    /** Until the previous run's state is read back, refreshes wait. */
    private boolean started;

    FullRefreshes(
            FlinkTarget flink,
            JobSubmitter submitter,
            JobManagerConfig config,
            PipelineReports reports,
            PaimonSnapshots snapshots,
            PaimonPartitions partitions,
            ReplacedInputs replaced,
            Clock clock) {
        this.flink = flink;
        this.submitter = submitter;
        this.config = config;
        this.reports = reports;
        this.snapshots = snapshots;
        this.partitions = partitions;
        this.scopes = new RefreshScopes(snapshots, partitions, replaced);
        this.progress = new FullRefreshProgress(flink, snapshots, reports, clock);
        this.clock = clock;
    }

    void start() {
        started = true;
    }

    /** A refresh job found on the cluster at start is the table's running refresh. */
    void attach(Pipeline pipeline, FlinkJob job, String refreshId) {
        pipeline.refreshJobId = job.id();
        pipeline.refreshRunning =
                new Pipeline.Refresh(
                        refreshId,
                        Map.of(),
                        scheduledTimeOf(refreshId),
                        RefreshTick.Reason.CATCH_UP);
        pipeline.refreshStartedAt = clock.instant();
        progress.attached(job.id());
        LOG.infof("re-attached to refresh job %s of %s", job.id(), pipeline.table);
    }

    /** Runs the refresh now, or makes it the one waiting. */
    void request(Pipeline pipeline, Pipeline.Refresh refresh) {
        if (!started || !pipeline.planReady() || pipeline.refreshRunning != null) {
            // The plan is not known yet (its topic is read by another consumer), or a refresh runs:
            // this one waits, the newest only; the others are coalesced into it.
            if (pipeline.refreshWaiting != null) {
                pipeline.coalescedRefreshes++;
            }
            pipeline.refreshWaiting = refresh;
            return;
        }
        if (pipeline.plan.status() != RefreshPlan.Status.ACTIVE
                || pipeline.status() == Pipeline.Status.SUSPENDED) {
            LOG.infof("not refreshing %s: it is %s", pipeline.table, pipeline.status());
            return;
        }
        if (pipeline.plan.mode() == Mode.CONTINUOUS) {
            // Its streaming job writes it; a batch overwrite beside it would be a second writer.
            LOG.infof(
                    "not refreshing %s: it is CONTINUOUS, kept fresh by its streaming job",
                    pipeline.table);
            return;
        }
        TableDefinition definition = pipeline.definition;
        Instant requestedAt = clock.instant();
        RefreshScopes.Decision scope;
        try {
            scope = scopes.of(pipeline, refresh);
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    null,
                    "cannot read the snapshots of the refresh's inputs: "
                            + PipelineReports.rootMessage(e),
                    refresh);
            return;
        }
        if (scope instanceof RefreshScopes.NoData noData) {
            reports.noData(
                    pipeline,
                    refresh,
                    noData.tableSnapshotId(),
                    noData.inputSnapshots(),
                    requestedAt);
            return;
        }
        RefreshScopes.Run run = (RefreshScopes.Run) scope;
        Long recordsToRead = recordsToRead(definition, run);
        try {
            Instant scoped = clock.instant();
            var job =
                    submitter.submitRefresh(
                            definition,
                            run.overwrite(),
                            run.pinned(),
                            JobOptions.refresh(definition, refresh.id(), config));
            LOG.infof(
                    "refresh %s of %s: scope decided in %d ms, job compiled and submitted in %d ms",
                    refresh.id(),
                    pipeline.table,
                    Duration.between(requestedAt, scoped).toMillis(),
                    Duration.between(scoped, clock.instant()).toMillis());
            pipeline.refreshJobId = job.getJobID().toHexString();
            pipeline.refreshRunning = refresh;
            pipeline.refreshScope = run.scope();
            pipeline.refreshRecordsToRead = recordsToRead;
            // The refresh's time counts from here: compiling and submitting its job are part of its
            // cost.
            pipeline.refreshStartedAt = requestedAt;
            reports.events()
                    .jobStarted(
                            new JobStarted(
                                    pipeline.table,
                                    definition.version(),
                                    Mode.FULL,
                                    pipeline.refreshJobId,
                                    JobSql.refreshJobName(definition, refresh.id()),
                                    null,
                                    clock.instant()));
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    null,
                    "cannot start the refresh: " + PipelineReports.rootMessage(e),
                    refresh);
        }
    }

    /** A refresh that arrived before its plan, or while another ran, runs now. */
    void startWaiting(Pipeline pipeline) {
        Pipeline.Refresh next = pipeline.refreshWaiting;
        if (next != null && pipeline.refreshRunning == null) {
            pipeline.refreshWaiting = null;
            request(pipeline, next);
        }
    }

    /** Looks at the running refresh job: reports its end and starts the one waiting. */
    void watch(Pipeline pipeline, FlinkJob job) {
        if (pipeline.refreshJobId == null) {
            return;
        }
        if (job == null) {
            LOG.warnf(
                    "refresh job %s of %s is gone from the cluster; counted as failed",
                    pipeline.refreshJobId, pipeline.table);
            Pipeline.Refresh lost = pipeline.refreshRunning;
            clearRunning(pipeline);
            reports.failed(
                    pipeline,
                    null,
                    "the refresh "
                            + (lost == null ? "" : lost.id() + " ")
                            + "was lost with the Flink cluster",
                    lost);
            if (lost != null && pipeline.refreshWaiting == null) {
                pipeline.refreshWaiting = lost; // run it again
            }
            startWaiting(pipeline);
            return;
        }
        if (!job.ended()) {
            reportProgress(pipeline);
            return;
        }
        String jobId = pipeline.refreshJobId;
        Pipeline.Refresh refresh = pipeline.refreshRunning;
        try {
            reportEnd(pipeline, job, refresh);
        } catch (RuntimeException e) {
            // Reading the outcome (Paimon) or reporting it (Kafka) failed: the refresh stays the
            // running one and the next look reports it, so its end is never lost; after a few tries
            // it counts as failed.
            pipeline.endReportAttempts++;
            if (pipeline.endReportAttempts < END_REPORT_ATTEMPTS) {
                LOG.warnf(
                        "refresh job %s of %s ended %s; reporting it failed (try %d of %d, tried"
                                + " again at the next look): %s",
                        jobId,
                        pipeline.table,
                        job.state(),
                        pipeline.endReportAttempts,
                        END_REPORT_ATTEMPTS,
                        PipelineReports.rootMessage(e));
                return;
            }
            clearRunning(pipeline);
            reports.failed(
                    pipeline,
                    jobId,
                    "the refresh "
                            + refresh.id()
                            + " ended "
                            + job.state()
                            + " but its outcome could not be reported: "
                            + PipelineReports.rootMessage(e),
                    refresh);
            startWaiting(pipeline);
            return;
        }
        clearRunning(pipeline);
        startWaiting(pipeline);
    }

    private void clearRunning(Pipeline pipeline) {
        if (pipeline.refreshJobId != null) {
            progress.ended(pipeline.refreshJobId);
        }
        pipeline.refreshJobId = null;
        pipeline.refreshRunning = null;
        pipeline.refreshScope = null;
        pipeline.refreshRecordsToRead = null;
        pipeline.endReportAttempts = 0;
    }

    /**
     * The records the refresh reads in all, when they can be counted before it runs; null when not,
     * or when counting failed (its progress then says what was read, not of how much).
     */
    private Long recordsToRead(TableDefinition definition, RefreshScopes.Run run) {
        try {
            return progress.recordsToRead(definition, run);
        } catch (RuntimeException e) {
            LOG.warnf(
                    "the records the refresh of %s reads could not be counted: %s",
                    definition.table(), PipelineReports.rootMessage(e));
            return null;
        }
    }

    /**
     * How far the running refresh is; a report that fails (the metrics, Kafka) is tried again at
     * the next look.
     */
    private void reportProgress(Pipeline pipeline) {
        try {
            progress.report(pipeline);
        } catch (RuntimeException e) {
            LOG.debugf(
                    "the progress of the refresh of %s was not reported (tried again at the next"
                            + " look): %s",
                    pipeline.table, PipelineReports.rootMessage(e));
        }
    }

    /** Reports how a refresh job ended; changes the pipeline only once its event is sent. */
    private void reportEnd(Pipeline pipeline, FlinkJob job, Pipeline.Refresh refresh) {
        String jobId = job.id();
        Pipeline.RefreshScope scope = pipeline.refreshScope;
        if (!job.state().equals("FINISHED")) {
            reports.failed(
                    pipeline,
                    jobId,
                    "the refresh "
                            + refresh.id()
                            + " failed: "
                            + flink.failureCause(jobId).orElse(job.state()),
                    refresh);
            return;
        }
        try {
            emptyWhatTheQueryNoLongerProduces(pipeline, scope);
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    jobId,
                    "the refresh "
                            + refresh.id()
                            + " wrote its partitions but could not empty those the query no longer"
                            + " produces: "
                            + PipelineReports.rootMessage(e),
                    refresh);
            return;
        }
        Map<String, String> reported =
                scope != null && scope.changedPartitions() != null ? Map.of() : refresh.partition();
        long before = scope == null ? pipeline.lastSnapshotId : scope.tableSnapshotBefore();
        long latest =
                snapshots
                        .latest(pipeline.table)
                        .map(PaimonSnapshots.CommittedSnapshot::id)
                        .orElse(before);
        long rows = partitions.rowsWritten(pipeline.table, before, latest);
        if (!reports.newSnapshot(
                pipeline,
                Mode.FULL,
                reported,
                pipeline.refreshStartedAt,
                refresh.dataTimestamp(),
                jobId,
                scope,
                rows,
                refresh.reason().name())) {
            reports.unchanged(pipeline, refresh, jobId, scope);
        }
        pipeline.consecutiveFailures = 0;
        pipeline.on(TableLifecycle.Event.REFRESH_SUCCEEDED);
        if (scope != null && scope.inputSnapshots() != null) {
            pipeline.lastInputs.put(
                    scope.baseline(),
                    new Pipeline.InputsRead(
                            pipeline.definition.version(),
                            scope.inputSnapshots(),
                            pipeline.refreshStartedAt));
        }
    }

    /**
     * A refresh of changed partitions replaced those the query produced rows for (dynamic
     * overwrite); one it produced none for still holds its old rows, which are emptied now.
     */
    private void emptyWhatTheQueryNoLongerProduces(Pipeline pipeline, Pipeline.RefreshScope scope) {
        if (scope == null || scope.changedPartitions() == null) {
            return;
        }
        long latest =
                snapshots
                        .latest(pipeline.table)
                        .map(PaimonSnapshots.CommittedSnapshot::id)
                        .orElse(scope.tableSnapshotBefore());
        var written =
                partitions
                        .written(pipeline.table, scope.tableSnapshotBefore(), latest)
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "the refresh's own snapshot is no longer kept"));
        var present = partitions.present(pipeline.table);
        partitions.empty(
                pipeline.table,
                scope.changedPartitions().stream()
                        .filter(present::contains)
                        .filter(p -> !written.contains(p))
                        .toList());
    }

    /** The scheduled time a scheduled tick's id names ({@link TickIds}); else now. */
    private Instant scheduledTimeOf(String tickId) {
        return TickIds.scheduledTime(tickId).orElseGet(clock::instant);
    }
}
