package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.RefreshFailed;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.jboss.logging.Logger;

/** The streaming job of a CONTINUOUS table: started (new or from saved state), stopped, watched. */
final class StreamingJobs {

    private static final Logger LOG = Logger.getLogger(StreamingJobs.class);

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final Locations locations;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final Clock clock;
    private final SlotBudget slots;
    private final SourceLoads sources;

    StreamingJobs(
            FlinkTarget flink,
            JobSubmitter submitter,
            Locations locations,
            JobManagerConfig config,
            PipelineReports reports,
            Clock clock) {
        this.flink = flink;
        this.submitter = submitter;
        this.locations = locations;
        this.config = config;
        this.reports = reports;
        this.clock = clock;
        this.slots = new SlotBudget(config.jobs().refreshSlots(), config.flink().parallelism());
        this.sources = new SourceLoads(flink, config, reports, clock);
    }

    /**
     * A streaming job found on the cluster at start is the table's job again (not a second one).
     */
    void attach(Pipeline pipeline, FlinkJob job, long version, String queryFingerprint) {
        pipeline.streamingJobId = job.id();
        pipeline.streamingJobVersion = version;
        pipeline.streamingJobQuery = queryFingerprint;
        pipeline.streamingJobRestarts = -1;
        pipeline.on(TableLifecycle.Event.JOB_REATTACHED);
        LOG.infof("re-attached to streaming job %s of %s v%d", job.id(), pipeline.table, version);
    }

    /** Whether the table's job runs this definition version already. */
    boolean runs(Pipeline pipeline, TableDefinition definition) {
        return pipeline.streamingJobId != null
                && pipeline.streamingJobVersion == definition.version()
                && running(pipeline.streamingJobId);
    }

    /**
     * Submits the table's streaming job, or queues it while the cluster has no free slot for it
     * (see {@link SlotBudget}; the poll starts it when they free up). False when it could not be
     * started (reported as a failure).
     */
    boolean start(Pipeline pipeline, String restoreFrom) {
        TableDefinition definition = pipeline.definition;
        try {
            Map<String, String> options =
                    JobOptions.streaming(definition, pipeline.plan, config, locations, restoreFrom);
            SlotBudget.Admission admission = slots.admit(flink.capacity(), slotsNeeded(options));
            if (!admission.admitted()) {
                queue(pipeline, restoreFrom, slotsNeeded(options), admission);
                return true;
            }
            var job = submitter.submitStreaming(definition, pipeline.plan, options);
            pipeline.streamingJobId = job.getJobID().toHexString();
            pipeline.streamingJobVersion = definition.version();
            pipeline.streamingJobQuery = QueryState.fingerprint(definition);
            pipeline.streamingJobRestarts = 0;
            pipeline.jobSubmitted();
            reports.events()
                    .jobStarted(
                            new JobStarted(
                                    pipeline.table,
                                    definition.version(),
                                    Mode.CONTINUOUS,
                                    pipeline.streamingJobId,
                                    JobSql.streamingJobName(definition),
                                    restoreFrom,
                                    clock.instant()));
            LOG.infof(
                    "started streaming job %s for %s v%d%s",
                    pipeline.streamingJobId,
                    pipeline.table,
                    definition.version(),
                    restoreFrom == null ? "" : " from " + restoreFrom);
            return true;
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    null,
                    "cannot start the streaming job: " + PipelineReports.rootMessage(e),
                    null);
            return false;
        }
    }

    /**
     * Whether a job with these options finds free slots now (beside the jobs running: a switch-over
     * runs two).
     */
    boolean fits(Map<String, String> options) {
        return slots.admit(flink.capacity(), slotsNeeded(options)).admitted();
    }

    /** A job's slots: its parallelism (its operators share them), as its own options set it. */
    private static int slotsNeeded(Map<String, String> options) {
        try {
            return Math.max(
                    1, Integer.parseInt(options.getOrDefault("parallelism.default", "1").strip()));
        } catch (NumberFormatException e) {
            return 1; // Flink refuses the option itself, and says so when the job is submitted
        }
    }

    /** Waits for slots: reported once per definition version, with what it waits for. */
    private void queue(
            Pipeline pipeline, String restoreFrom, int needed, SlotBudget.Admission admission) {
        if (!pipeline.waitForSlots(restoreFrom, clock.instant())) {
            return; // reported for this version already
        }
        reports.events()
                .jobQueued(
                        new JobQueued(
                                pipeline.table,
                                pipeline.definition.version(),
                                admission.reason(),
                                needed,
                                admission.freeForStreaming(),
                                admission.capacity().totalSlots(),
                                slots.reservedForRefreshes(),
                                clock.instant()));
        LOG.infof(
                "queued the streaming job of %s v%d: %s",
                pipeline.table, pipeline.definition.version(), admission.reason());
    }

    /** The tables waiting for slots whose plan still wants a streaming job, first come first. */
    List<Pipeline> queued(Collection<Pipeline> pipelines) {
        return pipelines.stream()
                .filter(
                        p ->
                                p.status() == Pipeline.Status.QUEUED
                                        && p.planReady()
                                        && p.plan.mode() == Mode.CONTINUOUS
                                        && p.plan.status() == RefreshPlan.Status.ACTIVE)
                .sorted(Comparator.comparing(Pipeline::queuedSince))
                .toList();
    }

    /**
     * Stops the table's streaming job: with a savepoint into the state directory of {@code
     * keepStateOf} (whose query the job runs), else cancelled. The savepoint's path, or null.
     */
    String stop(Pipeline pipeline, TableDefinition keepStateOf) {
        String jobId = pipeline.streamingJobId;
        pipeline.streamingJobId = null;
        if (jobId == null || !running(jobId)) {
            return null;
        }
        Optional<String> directory =
                keepStateOf == null ? Optional.empty() : locations.savepointDir(keepStateOf);
        if (directory.isPresent()) {
            try {
                return flink.stopWithSavepoint(jobId, directory.get());
            } catch (RuntimeException e) {
                LOG.warnf(
                        "stop with savepoint of %s failed (%s); cancelling it",
                        jobId, PipelineReports.rootMessage(e));
            }
        }
        flink.cancel(jobId);
        return null;
    }

    /**
     * Looks at the table's streaming job: reports new snapshots; a job Flink gave up on counts as
     * failed; a job the cluster lost is started again by {@code restart}.
     */
    void watch(Pipeline pipeline, FlinkJob job, Runnable restart) {
        if (pipeline.streamingJobId == null) {
            return;
        }
        if (job == null) {
            // The cluster does not know the job: it was lost with the cluster. Start it again from
            // the query's latest checkpoint.
            LOG.warnf(
                    "job %s of %s is gone from the cluster; starting it again from its latest"
                            + " checkpoint",
                    pipeline.streamingJobId, pipeline.table);
            pipeline.streamingJobId = null;
            restart.run();
            return;
        }
        switch (job.state()) {
            case "RUNNING" -> {
                pipeline.on(TableLifecycle.Event.JOB_RUNNING);
                var checkpoints = flink.completedCheckpoints(pipeline.streamingJobId);
                checkpointAsap(pipeline, checkpoints);
                var progress = sources.look(pipeline, pipeline.streamingJobId);
                reports.streamingProgress(pipeline, pipeline.streamingJobId, checkpoints);
                progress.ifPresent(
                        seen -> sources.reportLoad(pipeline, pipeline.streamingJobId, seen));
                reportRestarts(
                        pipeline,
                        pipeline.streamingJobId); // after the progress: its lag is measured by when
                // snapshots are reported
            }
            case "FAILED" -> {
                String jobId = pipeline.streamingJobId;
                pipeline.streamingJobId = null;
                String cause = flink.failureCause(jobId).orElse("the job failed");
                if (lackedSlots(cause)) {
                    requeue(pipeline, jobId, cause);
                    return;
                }
                pipeline.consecutiveFailures =
                        config.jobs().maxConsecutiveFailures() - 1; // Flink's restarts are used up
                reports.failed(
                        pipeline,
                        jobId,
                        "the streaming job failed after "
                                + config.jobs().maxConsecutiveFailures()
                                + " restarts: "
                                + cause,
                        null);
            }
            case "CANCELED", "FINISHED" -> pipeline.streamingJobId = null;
            default -> {
                // starting, restarting: Flink's restart strategy is at work
            }
        }
    }

    /**
     * Asks the running job for a checkpoint at once, again at each look while Flink cannot take one
     * yet (its tasks still deploying), until the job has a completed checkpoint. Not a failure of
     * the table when Flink cannot: its periodic checkpoints commit all the same.
     */
    private void checkpointAsap(Pipeline pipeline, SortedMap<Long, Instant> checkpoints) {
        if (!pipeline.checkpointAsap) {
            return;
        }
        if (!checkpoints.isEmpty()) {
            pipeline.checkpointAsap = false;
            pipeline.asapCheckpoint = null;
        } else if (pipeline.asapCheckpoint == null
                || pipeline.asapCheckpoint.isCompletedExceptionally()) {
            try {
                pipeline.asapCheckpoint = flink.triggerCheckpoint(pipeline.streamingJobId);
            } catch (RuntimeException e) {
                pipeline.asapCheckpoint = null; // asked again at the next look
            }
        }
    }

    /**
     * Restarts by Flink's restart strategy are failures too, though the job recovered: each new one
     * is reported (with Flink's cause) and counted, not counted towards suspension (Flink's
     * strategy gives up by itself, and then the job FAILED above).
     */
    private void reportRestarts(Pipeline pipeline, String jobId) {
        var restarts = flink.restarts(jobId);
        if (restarts.isEmpty()) {
            return;
        }
        long now = restarts.getAsLong();
        long known = pipeline.streamingJobRestarts;
        pipeline.streamingJobRestarts = Math.max(known, now);
        if (known < 0 || now <= known) {
            return; // the first look at a job taken over: its earlier restarts were this job's
            // before
        }
        String cause = flink.failureCause(jobId).orElse("no cause recorded");
        if (lackedSlots(cause)) {
            requeue(pipeline, jobId, cause);
            return;
        }
        reports.events()
                .jobRestarted(
                        new RefreshFailed(
                                pipeline.table,
                                pipeline.plan.definitionVersion(),
                                Mode.CONTINUOUS,
                                jobId,
                                "Flink restarted the streaming job ("
                                        + now
                                        + " restart(s) so far; it gives up after "
                                        + config.jobs().maxConsecutiveFailures()
                                        + " in a row): "
                                        + cause,
                                1,
                                clock.instant(),
                                null,
                                PipelineReports.CONTINUOUS),
                        now - known);
    }

    /** Flink's words for a job it could not place on a slot. */
    private static boolean lackedSlots(String cause) {
        return cause.contains("NoResourceAvailableException");
    }

    /**
     * A job Flink could not place (the slots were taken between the look at the capacity and the
     * job's placement, by a refresh or by jobs that are not ours) is not a failure of the table: it
     * is cancelled and queued again, to start from its latest checkpoint when slots free up.
     */
    private void requeue(Pipeline pipeline, String jobId, String cause) {
        String restore;
        try {
            // Read before the cancel (which adds no checkpoint): a store that cannot be read leaves
            // the job as it is, seen again next poll.
            restore = locations.latestState(pipeline.definition).orElse(null);
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    jobId,
                    "cannot read the saved state to queue the job again: "
                            + PipelineReports.rootMessage(e),
                    null);
            return;
        }
        if (running(jobId)) {
            flink.cancel(jobId);
        }
        pipeline.streamingJobId = null;
        pipeline.requeued(restore, clock.instant());
        int needed = config.flink().parallelism();
        SlotBudget.Admission now = slots.admit(flink.capacity(), needed);
        String reason =
                "Flink could not place the job on a task slot ("
                        + cause
                        + "); it was cancelled and starts again from its latest checkpoint when"
                        + " slots free up: suspend or drop another table, or add a TaskManager";
        reports.events()
                .jobQueued(
                        new JobQueued(
                                pipeline.table,
                                pipeline.definition.version(),
                                reason,
                                needed,
                                now.freeForStreaming(),
                                now.capacity().totalSlots(),
                                slots.reservedForRefreshes(),
                                clock.instant()));
        LOG.warnf("queued the streaming job of %s again: %s", pipeline.table, reason);
    }

    boolean running(String jobId) {
        return flink.job(jobId).map(job -> !job.ended()).orElse(false);
    }
}
