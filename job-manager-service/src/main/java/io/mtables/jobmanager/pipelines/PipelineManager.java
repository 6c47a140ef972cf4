package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.StateRestored;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchedOver;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Runs every plan: for each table, at most one streaming job (CONTINUOUS, see {@link
 * StreamingJobs}) or one refresh at a time (FULL, see {@link FullRefreshes}), started, changed,
 * suspended, resumed and dropped as the plans say, with every step reported on {@code
 * mt.refresh.events}. Not thread-safe: the runtime calls it from one thread.
 */
public class PipelineManager {

    private static final Logger LOG = Logger.getLogger(PipelineManager.class);
    private static final Duration MAX_RETRY_DELAY = Duration.ofMinutes(1);

    private final Map<String, Pipeline> pipelines = new HashMap<>();
    private final FlinkTarget flink;
    private final PipelineReports reports;
    private final StreamingJobs streaming;
    private final FullRefreshes refreshes;
    private final SwitchOvers switchOvers;
    private final StateRestores restores;
    private final ReplacedInputs replacedInputs;
    private final PlanSteps steps;
    private final JobTakeover takeover;
    private final Clock clock;
    private final Pattern included;
    private volatile List<String> queued = List.of();

    /** While the previous run's state is read back, plans are collected, not acted on. */
    private boolean loading = true;

    public PipelineManager(
            FlinkTarget flink,
            JobSubmitter submitter,
            PaimonSnapshots snapshots,
            PaimonPartitions partitions,
            Locations locations,
            JobManagerConfig config,
            RefreshEvents events,
            Clock clock) {
        this.flink = flink;
        this.clock = clock;
        this.reports = new PipelineReports(events, snapshots, config, clock);
        this.streaming = new StreamingJobs(flink, submitter, locations, config, reports, clock);
        this.switchOvers =
                new SwitchOvers(
                        flink,
                        submitter,
                        snapshots,
                        locations,
                        config,
                        reports,
                        streaming,
                        clock,
                        this::rowsReplaced);
        this.replacedInputs = new ReplacedInputs(submitter, streaming, switchOvers, reports, clock);
        this.refreshes =
                new FullRefreshes(
                        flink,
                        submitter,
                        config,
                        reports,
                        snapshots,
                        partitions,
                        replacedInputs,
                        clock);
        this.restores =
                new StateRestores(
                        flink,
                        submitter,
                        locations,
                        config,
                        reports,
                        streaming,
                        clock,
                        this::rowsReplaced,
                        snapshots,
                        switchOvers);
        this.steps =
                new PlanSteps(
                        flink,
                        submitter,
                        locations,
                        events,
                        reports,
                        streaming,
                        switchOvers,
                        restores,
                        clock);
        this.included = Pattern.compile(config.jobs().include());
        this.takeover =
                new JobTakeover(flink, snapshots, streaming, switchOvers, refreshes, this::mine);
    }

    private boolean mine(String table) {
        return included.matcher(table).matches();
    }

    // ---- what is known --------------------------------------------------------------------------

    /** A table's definition; a newer plan waiting for it is applied. */
    public void onDefinition(TableDefinition definition) {
        if (definition.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || !mine(definition.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(definition.table(), Pipeline::new);
        if (pipeline.definition == null || definition.version() > pipeline.definition.version()) {
            pipeline.definition = definition;
        }
        apply(pipeline);
    }

    /** A table's plan: start, change, suspend or drop its pipeline once its definition is known. */
    public void onPlan(RefreshPlan plan) {
        if (!mine(plan.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(plan.table(), Pipeline::new);
        if (pipeline.plan == null || plan.definitionVersion() > pipeline.plan.definitionVersion()) {
            if (plan.plannedAt() != null && !loading) {
                LOG.infof(
                        "plan of %s v%d (%s %s) acted on %d ms after it was made",
                        plan.table(),
                        plan.definitionVersion(),
                        plan.status(),
                        plan.mode(),
                        Duration.between(plan.plannedAt(), clock.instant()).toMillis());
            }
            pipeline.plan = plan;
            pipeline.failedApplies =
                    0; // a new plan is acted on at once, and its own failures back off from 1 s
            pipeline.retryApplyAt = null;
        }
        apply(pipeline);
    }

    /**
     * What the previous run of the service left: a suspended table stays suspended (its savepoint
     * is found in its savepoint directory at RESUME).
     */
    public void recall(Suspended suspended) {
        if (!mine(suspended.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(suspended.table(), Pipeline::new);
        pipeline.on(TableLifecycle.Event.SUSPENDED);
        pipeline.appliedPlanVersion = suspended.definitionVersion();
    }

    /**
     * A switch-over seen in the previous run: the table's snapshots are numbered anew from it on.
     */
    public void recall(SwitchedOver switched) {
        replacedInputs.recall(switched.table(), switched.switchedAt());
        if (mine(switched.table())) {
            pipelines.computeIfAbsent(switched.table(), Pipeline::new).lastSnapshotId = 0;
        }
    }

    /**
     * A restore seen in the previous run: the table's rows were rewritten then, which its FULL
     * readers do not compare snapshots across.
     */
    public void recall(StateRestored restored) {
        replacedInputs.recall(restored.table(), restored.restoredAt());
    }

    /**
     * The table's rows were replaced at once: what reads it is rebuilt ({@link ReplacedInputs}).
     */
    private void rowsReplaced(String table) {
        replacedInputs.replaced(table, List.copyOf(pipelines.values()));
    }

    /** A resume seen in the previous run: the table runs. */
    public void recall(Resumed resumed) {
        if (!mine(resumed.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(resumed.table(), Pipeline::new);
        pipeline.on(TableLifecycle.Event.RESUMED);
    }

    /**
     * The last snapshot reported in the previous run, so it is not reported again, and the inputs
     * each partition's last refresh read, so an unchanged one is not refreshed again.
     */
    public void recall(RefreshSucceeded succeeded) {
        if (!mine(succeeded.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(succeeded.table(), Pipeline::new);
        pipeline.lastSnapshotId = Math.max(pipeline.lastSnapshotId, succeeded.snapshotId());
        if (succeeded.inputSnapshots() != null) {
            pipeline.lastInputs.put(
                    succeeded.partition(),
                    new Pipeline.InputsRead(
                            succeeded.definitionVersion(),
                            succeeded.inputSnapshots(),
                            succeeded.startedAt()));
        }
    }

    /** Ends loading: acts on every plan known, with the jobs found on the cluster attached. */
    public void start(List<FlinkJob> jobsOnCluster) {
        takeover.attach(jobsOnCluster, pipelines);
        loading = false;
        refreshes.start();
        List.copyOf(pipelines.values()).forEach(this::apply);
    }

    // ---- plans ----------------------------------------------------------------------------------

    /**
     * Acts on the table's plan. A step that could not be done (a savepoint refused, the Paimon
     * table or the job not created, the drop not done) leaves the plan unapplied: the poll tries it
     * again after {@link #retryDelay}, and every failed try is reported.
     */
    private void apply(Pipeline pipeline) {
        if (loading
                || !pipeline.planReady()
                || pipeline.plan.definitionVersion() < pipeline.appliedPlanVersion) {
            return;
        }
        RefreshPlan plan = pipeline.plan;
        boolean repeat = plan.definitionVersion() == pipeline.appliedPlanVersion;
        boolean done =
                switch (plan.status()) {
                    case DROPPED -> {
                        boolean dropped = steps.drop(pipeline);
                        if (dropped) {
                            pipelines.remove(pipeline.table);
                        }
                        yield dropped;
                    }
                    case REFUSED -> {
                        if (!repeat) {
                            steps.refuse(pipeline);
                        }
                        yield true;
                    }
                    case SUSPENDED ->
                            repeat && pipeline.status() == Pipeline.Status.SUSPENDED
                                    || steps.suspend(
                                            pipeline, "ALTER MATERIALIZED TABLE ... SUSPEND");
                    case ACTIVE -> {
                        if (pipeline.status() == Pipeline.Status.SUSPENDED && repeat) {
                            yield true; // suspended by the job manager after failures: waits for a
                            // RESUME (a new version)
                        }
                        // Failures counted up to the limit suspend the table: then it waits for a
                        // RESUME too.
                        yield steps.activate(pipeline)
                                || pipeline.status() == Pipeline.Status.SUSPENDED;
                    }
                };
        if (!done) {
            tryAgainLater(pipeline);
            return;
        }
        pipeline.failedApplies = 0;
        pipeline.retryApplyAt = null;
        pipeline.appliedPlanVersion = plan.definitionVersion();
        if (pipelines.containsKey(pipeline.table)) {
            refreshes.startWaiting(pipeline); // a refresh that arrived before its plan runs now
        }
    }

    private void tryAgainLater(Pipeline pipeline) {
        pipeline.failedApplies++;
        pipeline.retryApplyAt = clock.instant().plus(retryDelay(pipeline.failedApplies));
    }

    /**
     * 1 s after the first failed try, doubling up to a minute: a refused savepoint is not retried
     * in a storm.
     */
    static Duration retryDelay(int failedTries) {
        long seconds = 1L << Math.min(failedTries - 1, 6);
        return Duration.ofSeconds(Math.min(seconds, MAX_RETRY_DELAY.toSeconds()));
    }

    // ---- refreshes ------------------------------------------------------------------------------

    /**
     * A tick: one FULL refresh, coalesced with one already running. Ticks of older plans are
     * ignored.
     */
    public void onTick(RefreshTick tick) {
        if (!mine(tick.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(tick.table(), Pipeline::new);
        if (pipeline.plan != null && tick.planVersion() < pipeline.plan.definitionVersion()) {
            LOG.debugf(
                    "ignoring tick %s of plan version %d: the plan is at %d",
                    tick.tickId(), tick.planVersion(), pipeline.plan.definitionVersion());
            return;
        }
        refreshes.request(
                pipeline,
                new Pipeline.Refresh(
                        tick.tickId(), tick.partition(), tick.scheduledTime(), tick.reason()));
    }

    /** A tick the job manager could not act on: its refresh is reported failed, and counted. */
    public void tickFailed(RefreshTick tick, String reason) {
        if (!mine(tick.table())) {
            return;
        }
        Pipeline pipeline = pipelines.computeIfAbsent(tick.table(), Pipeline::new);
        reports.failed(
                pipeline,
                null,
                reason,
                new Pipeline.Refresh(
                        tick.tickId(), tick.partition(), tick.scheduledTime(), tick.reason()));
    }

    // ---- watching -------------------------------------------------------------------------------

    /**
     * Looks at every job and at new snapshots; called every poll interval. A cluster that does not
     * answer fails the poll; one table's error is logged and the other tables are still looked at
     * (that table is looked at again next time, and its lag shows in its freshness).
     */
    public void poll() {
        poll(() -> false);
    }

    /**
     * A poll that runs the actions waiting for the control thread ({@code runWaitingActions},
     * whether any ran) before each table it looks at, so a new plan does not wait for every table's
     * look; an action may start or stop jobs, so the jobs are listed again after one.
     */
    public void poll(BooleanSupplier runWaitingActions) {
        flink.ensureAvailable();
        Map<String, FlinkJob> jobs = jobsById();
        for (Pipeline pipeline : List.copyOf(pipelines.values())) {
            if (runWaitingActions.getAsBoolean()) {
                jobs = jobsById();
            }
            if (pipelines.get(pipeline.table) != pipeline) {
                continue; // dropped by an action meanwhile
            }
            try {
                look(pipeline, jobs);
            } catch (RuntimeException e) {
                LOG.warnf(
                        "looking at %s failed (looked at again at the next poll): %s",
                        pipeline.table, PipelineReports.rootMessage(e));
            }
        }
        startQueued();
        queued = streaming.queued(pipelines.values()).stream().map(p -> p.table).toList();
    }

    private Map<String, FlinkJob> jobsById() {
        Map<String, FlinkJob> jobs = new HashMap<>();
        for (FlinkJob job : flink.jobs()) {
            jobs.put(job.id(), job);
        }
        return jobs;
    }

    /**
     * Tables whose streaming job waits for task slots, in the order they start, as of the last poll
     * (read by the metrics and the cluster's report from any thread).
     */
    public List<String> queued() {
        return queued;
    }

    /**
     * Starts the tables waiting for slots, first come first served, while the cluster has slots for
     * them; the first that still does not fit ends the round, so the ones behind it wait their
     * turn. A start that fails is tried again with its plan's back-off.
     */
    private void startQueued() {
        for (Pipeline pipeline : streaming.queued(pipelines.values())) {
            if (pipeline.retryApplyAt != null) {
                continue;
            }
            if (!streaming.start(pipeline, pipeline.queuedRestore())) {
                tryAgainLater(pipeline);
                return;
            }
            if (pipeline.status() == Pipeline.Status.QUEUED) {
                return;
            }
        }
    }

    private void look(Pipeline pipeline, Map<String, FlinkJob> jobs) {
        boolean unapplied =
                pipeline.plan != null
                        && (pipeline.plan.definitionVersion() > pipeline.appliedPlanVersion
                                || pipeline.retryApplyAt != null);
        if (pipeline.planReady()
                && unapplied
                && (pipeline.retryApplyAt == null
                        || !clock.instant().isBefore(pipeline.retryApplyAt))) {
            Pipeline.Staging before = pipeline.staging;
            apply(pipeline); // a plan whose application failed or was cut short by an error is
            // tried again
            if (pipeline.staging != null && pipeline.staging != before) {
                return; // a switch-over began: its job is not in this poll's list yet
            }
        }
        if (pipeline.staging != null) {
            if (!switchOvers.watch(pipeline, jobs.get(pipeline.staging.jobId))) {
                tryAgainLater(pipeline); // the switch-over starts again after the back-off
            }
            if (pipeline.staging == null) {
                return; // switched over or given up: the jobs it started are not in this poll's
                // list; the next poll looks at them
            }
        }
        if (restores.watch(pipeline, jobs.get(pipeline.streamingJobId))) {
            tryAgainLater(pipeline); // a switch-over carries the change out after the back-off
            return;
        }
        streaming.watch(pipeline, jobs.get(pipeline.streamingJobId), () -> restartLost(pipeline));
        refreshes.watch(pipeline, jobs.get(pipeline.refreshJobId));
    }

    /**
     * Looks at the running refresh jobs only, one REST call each: cheap enough to run often, so a
     * refresh's end is reported within moments. A job the cluster does not know is left to the
     * poll.
     */
    public void watchRefreshes() {
        for (Pipeline pipeline : List.copyOf(pipelines.values())) {
            if (pipeline.refreshJobId != null) {
                flink.job(pipeline.refreshJobId).ifPresent(job -> refreshes.watch(pipeline, job));
            }
        }
    }

    /** A streaming job the cluster lost runs again, from its query's latest saved state. */
    private void restartLost(Pipeline pipeline) {
        if (pipeline.planReady()
                && pipeline.plan.status() == RefreshPlan.Status.ACTIVE
                && pipeline.plan.mode() == Mode.CONTINUOUS
                && !steps.activate(pipeline)
                && pipeline.status() != Pipeline.Status.SUSPENDED) {
            tryAgainLater(pipeline);
        }
    }

    /** The state of a table, for tests and status views. */
    public Optional<String> status(String table) {
        return Optional.ofNullable(pipelines.get(table)).map(p -> p.status().name());
    }
}
