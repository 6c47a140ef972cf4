package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Runs every plan: for each table, at most one streaming job (CONTINUOUS) or one refresh at a
 * time (FULL), started, changed, suspended, resumed and dropped as the plans say, with every step
 * reported on {@code mt.refresh.events}. Not thread-safe: the runtime calls it from one thread.
 */
public class PipelineManager {

  private static final Logger LOG = Logger.getLogger(PipelineManager.class);

  private final Map<String, Pipeline> pipelines = new HashMap<>();
  private final FlinkTarget flink;
  private final JobSubmitter submitter;
  private final PaimonSnapshots snapshots;
  private final Locations locations;
  private final JobManagerConfig config;
  private final RefreshEvents events;
  private final Clock clock;
  /** While the previous run's state is read back, plans are collected, not acted on. */
  private boolean loading = true;
  private final java.util.regex.Pattern included;

  public PipelineManager(
      FlinkTarget flink, JobSubmitter submitter, PaimonSnapshots snapshots, Locations locations, JobManagerConfig config, RefreshEvents events, Clock clock) {
    this.flink = flink;
    this.submitter = submitter;
    this.snapshots = snapshots;
    this.locations = locations;
    this.config = config;
    this.events = events;
    this.clock = clock;
    this.included = java.util.regex.Pattern.compile(config.jobs().include());
  }

  private boolean mine(String table) {
    return included.matcher(table).matches();
  }

  // ---- what is known --------------------------------------------------------------------------

  /** A table's definition; a newer plan waiting for it is applied. */
  public void onDefinition(TableDefinition definition) {
    if (definition.kind() != TableDefinition.Kind.MATERIALIZED_TABLE || !mine(definition.table())) {
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
      pipeline.plan = plan;
    }
    apply(pipeline);
  }

  /**
   * What the previous run of the service left: a suspended table stays suspended (its savepoint is
   * found in its savepoint directory at RESUME).
   */
  public void recall(Suspended suspended) {
    if (!mine(suspended.table())) {
      return;
    }
    Pipeline pipeline = pipelines.computeIfAbsent(suspended.table(), Pipeline::new);
    pipeline.status = Pipeline.Status.SUSPENDED;
    pipeline.appliedPlanVersion = suspended.definitionVersion();
  }

  /** A resume seen in the previous run: the table runs. */
  public void recall(Resumed resumed) {
    if (!mine(resumed.table())) {
      return;
    }
    Pipeline pipeline = pipelines.computeIfAbsent(resumed.table(), Pipeline::new);
    pipeline.status = Pipeline.Status.INITIALIZING;
  }

  /** The last snapshot reported in the previous run, so it is not reported again. */
  public void recall(RefreshSucceeded succeeded) {
    if (!mine(succeeded.table())) {
      return;
    }
    Pipeline pipeline = pipelines.computeIfAbsent(succeeded.table(), Pipeline::new);
    pipeline.lastSnapshotId = Math.max(pipeline.lastSnapshotId, succeeded.snapshotId());
  }

  /**
   * Takes over the jobs a previous run left on the cluster: a running streaming job of a table is
   * that table's job again (not a second one); a job of no known table is cancelled.
   */
  private void attach(List<FlinkJob> jobs) {
    for (FlinkJob job : jobs) {
      if (job.ended() || !job.name().startsWith("mt:")) {
        continue;
      }
      String[] parts = job.name().split(":");
      if (parts.length < 3 || !mine(parts[1])) {
        continue; // another job manager's
      }
      Pipeline pipeline = parts.length >= 3 ? pipelines.get(parts[1]) : null;
      if (pipeline == null) {
        LOG.warnf("cancelling job %s (%s): its table is unknown or dropped", job.id(), job.name());
        flink.cancel(job.id());
        continue;
      }
      long version = Long.parseLong(parts[2].substring(1));
      if (parts.length == 4 && parts[3].startsWith("q")) {
        pipeline.streamingJobId = job.id();
        pipeline.streamingJobVersion = version;
        pipeline.streamingJobQuery = parts[3].substring(1);
        pipeline.status = Pipeline.Status.ACTIVATED;
        LOG.infof("re-attached to streaming job %s of %s v%d", job.id(), pipeline.table, version);
      } else {
        pipeline.refreshJobId = job.id();
        String refreshId = job.name().substring(job.name().indexOf(":refresh:") + ":refresh:".length());
        pipeline.refreshRunning = new Pipeline.Refresh(refreshId, Map.of(), scheduledTimeOf(refreshId), RefreshTick.Reason.CATCH_UP);
        pipeline.refreshStartedAt = clock.instant();
        LOG.infof("re-attached to refresh job %s of %s", job.id(), pipeline.table);
      }
    }
  }

  /** Ends loading: acts on every plan known, with the jobs found on the cluster attached. */
  public void start(List<FlinkJob> jobsOnCluster) {
    attach(jobsOnCluster);
    loading = false;
    List.copyOf(pipelines.values()).forEach(this::apply);
  }

  // ---- plans ----------------------------------------------------------------------------------

  private void apply(Pipeline pipeline) {
    if (loading || !pipeline.planReady() || pipeline.plan.definitionVersion() < pipeline.appliedPlanVersion) {
      return;
    }
    RefreshPlan plan = pipeline.plan;
    boolean repeat = plan.definitionVersion() == pipeline.appliedPlanVersion;
    switch (plan.status()) {
      case DROPPED -> drop(pipeline);
      case REFUSED -> {
        if (!repeat) {
          refuse(pipeline);
        }
      }
      case SUSPENDED -> {
        if (!repeat || pipeline.status != Pipeline.Status.SUSPENDED) {
          suspend(pipeline, "ALTER MATERIALIZED TABLE ... SUSPEND");
        }
      }
      case ACTIVE -> {
        if (pipeline.status == Pipeline.Status.SUSPENDED && repeat) {
          return; // suspended by the job manager after failures: waits for a RESUME (a new version)
        }
        activate(pipeline);
      }
    }
    pipeline.appliedPlanVersion = plan.definitionVersion();
    startWaitingRefresh(pipeline);
  }

  /** A refresh that arrived before its plan, or while another ran, runs now. */
  private void startWaitingRefresh(Pipeline pipeline) {
    Pipeline.Refresh next = pipeline.refreshWaiting;
    if (next != null && pipeline.refreshRunning == null && pipelines.containsKey(pipeline.table)) {
      pipeline.refreshWaiting = null;
      refresh(pipeline, next);
    }
  }

  private void activate(Pipeline pipeline) {
    TableDefinition definition = pipeline.definition;
    RefreshPlan plan = pipeline.plan;
    boolean resuming = pipeline.status == Pipeline.Status.SUSPENDED;
    String query = QueryState.fingerprint(definition);
    if (plan.mode() == Mode.CONTINUOUS && pipeline.streamingJobId != null && pipeline.streamingJobVersion == definition.version()
        && running(pipeline.streamingJobId)) {
      return;
    }
    // The job of an older version goes first: its state is saved when the query is the same.
    stopStreamingJob(pipeline, query.equals(pipeline.streamingJobQuery) ? definition : null);
    boolean rebuilt;
    try {
      rebuilt = submitter.ensureTable(definition, plan);
    } catch (RuntimeException e) {
      fail(pipeline, null, "cannot create the Paimon table: " + rootMessage(e));
      return;
    }
    if (plan.mode() == Mode.CONTINUOUS) {
      String restore = rebuilt ? null : locations.latestState(definition).orElse(null);
      startStreaming(pipeline, restore);
    } else {
      pipeline.status = Pipeline.Status.ACTIVATED;
    }
    if (resuming) {
      events.resumed(new Resumed(pipeline.table, definition.version(), null, definition.resumeOptions() == null ? Map.of() : definition.resumeOptions(), clock.instant()));
    }
  }

  private void startStreaming(Pipeline pipeline, String restoreFrom) {
    TableDefinition definition = pipeline.definition;
    try {
      var job = submitter.submitStreaming(definition, JobOptions.streaming(definition, pipeline.plan, config, locations, restoreFrom));
      pipeline.streamingJobId = job.getJobID().toHexString();
      pipeline.streamingJobVersion = definition.version();
      pipeline.streamingJobQuery = QueryState.fingerprint(definition);
      pipeline.status = Pipeline.Status.INITIALIZING;
      events.jobStarted(
          new JobStarted(pipeline.table, definition.version(), Mode.CONTINUOUS, pipeline.streamingJobId, JobSql.streamingJobName(definition), restoreFrom, clock.instant()));
      LOG.infof("started streaming job %s for %s v%d%s", pipeline.streamingJobId, pipeline.table, definition.version(), restoreFrom == null ? "" : " from " + restoreFrom);
    } catch (RuntimeException e) {
      fail(pipeline, null, "cannot start the streaming job: " + rootMessage(e));
    }
  }

  /**
   * Stops the table's streaming job: with a savepoint into the state directory of {@code
   * keepStateOf} (whose query the job runs), else cancelled. The savepoint's path, or null.
   */
  private String stopStreamingJob(Pipeline pipeline, TableDefinition keepStateOf) {
    String jobId = pipeline.streamingJobId;
    pipeline.streamingJobId = null;
    if (jobId == null || !running(jobId)) {
      return null;
    }
    Optional<String> directory = keepStateOf == null ? Optional.empty() : locations.savepointDir(keepStateOf);
    if (directory.isPresent()) {
      try {
        return flink.stopWithSavepoint(jobId, directory.get());
      } catch (RuntimeException e) {
        LOG.warnf("stop with savepoint of %s failed (%s); cancelling it", jobId, rootMessage(e));
      }
    }
    flink.cancel(jobId);
    return null;
  }

  private void suspend(Pipeline pipeline, String reason) {
    String savepoint = null;
    if (pipeline.streamingJobId != null && running(pipeline.streamingJobId)) {
      Optional<String> directory = locations.savepointDir(pipeline.definition);
      if (directory.isEmpty()) {
        events.failed(new RefreshFailed(pipeline.table, pipeline.plan.definitionVersion(), Mode.CONTINUOUS, pipeline.streamingJobId,
            "SUSPEND needs a savepoint directory (mt.flink.savepoint-dir); the job keeps running", 1, clock.instant(), null));
        return;
      }
      try {
        savepoint = flink.stopWithSavepoint(pipeline.streamingJobId, directory.get());
      } catch (RuntimeException e) {
        events.failed(new RefreshFailed(pipeline.table, pipeline.plan.definitionVersion(), Mode.CONTINUOUS, pipeline.streamingJobId,
            "SUSPEND could not save the job's state: " + rootMessage(e) + "; the job keeps running", 1, clock.instant(), null));
        return;
      }
    }
    pipeline.streamingJobId = null;
    pipeline.refreshWaiting = null;
    pipeline.status = Pipeline.Status.SUSPENDED;
    events.suspended(new Suspended(pipeline.table, pipeline.plan.definitionVersion(), reason, savepoint, clock.instant()));
    LOG.infof("suspended %s (%s)%s", pipeline.table, reason, savepoint == null ? "" : ", state in " + savepoint);
  }

  private void refuse(Pipeline pipeline) {
    stopStreamingJob(pipeline, QueryState.fingerprint(pipeline.definition).equals(pipeline.streamingJobQuery) ? pipeline.definition : null);
    pipeline.status = Pipeline.Status.FAILED;
    List<String> reasons = pipeline.plan.reasons();
    events.failed(new RefreshFailed(pipeline.table, pipeline.plan.definitionVersion(), Mode.CONTINUOUS, null,
        "the plan of version " + pipeline.plan.definitionVersion() + " was refused: " + reasons.get(reasons.size() - 1), 1, clock.instant(), null));
  }

  private void drop(Pipeline pipeline) {
    if (pipeline.streamingJobId != null && running(pipeline.streamingJobId)) {
      flink.cancel(pipeline.streamingJobId);
    }
    if (pipeline.refreshJobId != null && running(pipeline.refreshJobId)) {
      flink.cancel(pipeline.refreshJobId);
    }
    try {
      submitter.dropTable(pipeline.table);
    } catch (RuntimeException e) {
      LOG.errorf("cannot drop the Paimon table of %s: %s", pipeline.table, rootMessage(e));
      return; // tried again at the next start
    }
    pipelines.remove(pipeline.table);
    events.dropped(new Dropped(pipeline.table, pipeline.plan.definitionVersion(), clock.instant()));
    LOG.infof("dropped %s", pipeline.table);
  }

  // ---- refreshes ------------------------------------------------------------------------------

  /** A tick: one FULL refresh, coalesced with one already running. Ticks of older plans are ignored. */
  public void onTick(RefreshTick tick) {
    if (!mine(tick.table())) {
      return;
    }
    Pipeline pipeline = pipelines.computeIfAbsent(tick.table(), Pipeline::new);
    if (pipeline.plan != null && tick.planVersion() < pipeline.plan.definitionVersion()) {
      LOG.debugf("ignoring tick %s of plan version %d: the plan is at %d", tick.tickId(), tick.planVersion(), pipeline.plan.definitionVersion());
      return;
    }
    refresh(pipeline, new Pipeline.Refresh(tick.tickId(), tick.partition(), tick.scheduledTime(), tick.reason()));
  }

  private void refresh(Pipeline pipeline, Pipeline.Refresh refresh) {
    if (loading || !pipeline.planReady() || pipeline.refreshRunning != null) {
      // The plan is not known yet (its topic is read by another consumer), or a refresh runs: this
      // one waits, the newest only; the others are coalesced into it.
      if (pipeline.refreshWaiting != null) {
        pipeline.coalescedRefreshes++;
      }
      pipeline.refreshWaiting = refresh;
      return;
    }
    if (pipeline.plan.status() != RefreshPlan.Status.ACTIVE || pipeline.status == Pipeline.Status.SUSPENDED) {
      LOG.infof("not refreshing %s: it is %s", pipeline.table, pipeline.status);
      return;
    }
    if (pipeline.plan.mode() == Mode.CONTINUOUS) {
      // Its streaming job writes it; a batch overwrite beside it would be a second writer.
      LOG.infof("not refreshing %s: it is CONTINUOUS, kept fresh by its streaming job", pipeline.table);
      return;
    }
    TableDefinition definition = pipeline.definition;
    try {
      var job = submitter.submitRefresh(definition, refresh.partition(), JobOptions.refresh(definition, refresh.id(), config));
      pipeline.refreshJobId = job.getJobID().toHexString();
      pipeline.refreshRunning = refresh;
      pipeline.refreshStartedAt = clock.instant();
      events.jobStarted(new JobStarted(pipeline.table, definition.version(), Mode.FULL, pipeline.refreshJobId,
          JobSql.refreshJobName(definition, refresh.id()), null, pipeline.refreshStartedAt));
    } catch (RuntimeException e) {
      fail(pipeline, null, "cannot start the refresh: " + rootMessage(e), refresh);
    }
  }

  // ---- watching -------------------------------------------------------------------------------

  /** Looks at every job and at new snapshots; called every poll interval. */
  public void poll() {
    flink.ensureAvailable();
    Map<String, FlinkJob> jobs = new HashMap<>();
    for (FlinkJob job : flink.jobs()) {
      jobs.put(job.id(), job);
    }
    for (Pipeline pipeline : List.copyOf(pipelines.values())) {
      if (pipeline.planReady() && pipeline.plan.definitionVersion() > pipeline.appliedPlanVersion) {
        apply(pipeline); // a plan whose application was cut short by an error is tried again
      }
      watchStreaming(pipeline, jobs.get(pipeline.streamingJobId));
      watchRefresh(pipeline, jobs.get(pipeline.refreshJobId));
    }
  }

  private void watchStreaming(Pipeline pipeline, FlinkJob job) {
    if (pipeline.streamingJobId == null) {
      return;
    }
    if (job == null) {
      // The cluster does not know the job: it was lost with the cluster. Start it again from the
      // query's latest checkpoint.
      LOG.warnf("job %s of %s is gone from the cluster; starting it again from its latest checkpoint", pipeline.streamingJobId, pipeline.table);
      pipeline.streamingJobId = null;
      if (pipeline.planReady() && pipeline.plan.status() == RefreshPlan.Status.ACTIVE && pipeline.plan.mode() == Mode.CONTINUOUS) {
        activate(pipeline);
      }
      return;
    }
    switch (job.state()) {
      case "RUNNING" -> {
        if (pipeline.status == Pipeline.Status.INITIALIZING) {
          pipeline.status = Pipeline.Status.ACTIVATED;
        }
        reportNewSnapshot(pipeline, Mode.CONTINUOUS, Map.of(), pipeline.lastSnapshotAt, null, pipeline.streamingJobId);
      }
      case "FAILED" -> {
        String jobId = pipeline.streamingJobId;
        pipeline.streamingJobId = null;
        String cause = flink.failureCause(jobId).orElse("the job failed");
        pipeline.consecutiveFailures = config.jobs().maxConsecutiveFailures() - 1; // Flink's restarts are used up
        fail(pipeline, jobId, "the streaming job failed after " + config.jobs().maxConsecutiveFailures() + " restarts: " + cause);
      }
      case "CANCELED", "FINISHED" -> pipeline.streamingJobId = null;
      default -> {
        // starting, restarting: Flink's restart strategy is at work
      }
    }
  }

  private void watchRefresh(Pipeline pipeline, FlinkJob job) {
    if (pipeline.refreshJobId == null) {
      return;
    }
    if (job == null) {
      LOG.warnf("refresh job %s of %s is gone from the cluster; counted as failed", pipeline.refreshJobId, pipeline.table);
      Pipeline.Refresh lost = pipeline.refreshRunning;
      pipeline.refreshJobId = null;
      pipeline.refreshRunning = null;
      fail(pipeline, null, "the refresh " + (lost == null ? "" : lost.id() + " ") + "was lost with the Flink cluster", lost);
      if (lost != null && pipeline.refreshWaiting == null) {
        pipeline.refreshWaiting = lost; // run it again
      }
      startWaitingRefresh(pipeline);
      return;
    }
    if (!job.ended()) {
      return;
    }
    String jobId = pipeline.refreshJobId;
    Pipeline.Refresh refresh = pipeline.refreshRunning;
    pipeline.refreshJobId = null;
    pipeline.refreshRunning = null;
    if (job.state().equals("FINISHED")) {
      pipeline.consecutiveFailures = 0;
      pipeline.status = Pipeline.Status.ACTIVATED;
      if (!reportNewSnapshot(pipeline, Mode.FULL, refresh.partition(), pipeline.refreshStartedAt, refresh.dataTimestamp(), jobId)) {
        reportUnchanged(pipeline, refresh, jobId);
      }
    } else {
      fail(pipeline, jobId, "the refresh " + refresh.id() + " failed: " + flink.failureCause(jobId).orElse(job.state()), refresh);
    }
    startWaitingRefresh(pipeline);
  }

  /** Reports the table's latest snapshot if it is new; whether it was. */
  private boolean reportNewSnapshot(Pipeline pipeline, Mode mode, Map<String, String> partition, Instant startedAt, Instant dataTimestamp, String jobId) {
    var latest = snapshots.latest(pipeline.table);
    if (latest.isEmpty() || latest.get().id() <= pipeline.lastSnapshotId || latest.get().kind().equals("COMPACT")) {
      return false;
    }
    var snapshot = latest.get();
    Instant previous = pipeline.lastSnapshotAt == null ? snapshot.committedAt() : pipeline.lastSnapshotAt;
    pipeline.lastSnapshotId = snapshot.id();
    pipeline.lastSnapshotAt = snapshot.committedAt();
    events.succeeded(new RefreshSucceeded(pipeline.table, pipeline.definition.version(), mode, partition, snapshot.id(), snapshot.rowsAdded(),
        startedAt == null ? previous : startedAt, snapshot.committedAt(), dataTimestamp == null ? snapshot.committedAt() : dataTimestamp, jobId));
    return true;
  }

  /**
   * A FULL refresh that committed nothing new (Paimon skips an empty commit) still succeeded: the
   * table is as fresh as its scheduled time, and tables waiting for it go ahead.
   */
  private void reportUnchanged(Pipeline pipeline, Pipeline.Refresh refresh, String jobId) {
    var latest = snapshots.latest(pipeline.table);
    if (latest.isEmpty()) {
      LOG.warnf("refresh %s of %s finished but the table has no snapshot to report", refresh.id(), pipeline.table);
      return;
    }
    Instant now = clock.instant();
    events.succeeded(new RefreshSucceeded(pipeline.table, pipeline.definition.version(), Mode.FULL, refresh.partition(), latest.get().id(), 0,
        pipeline.refreshStartedAt == null ? now : pipeline.refreshStartedAt, now, refresh.dataTimestamp(), jobId));
  }

  private void fail(Pipeline pipeline, String jobId, String reason) {
    fail(pipeline, jobId, reason, null);
  }

  /**
   * Counts a failure; at the limit the table is suspended with the reason.
   *
   * @param refresh the FULL refresh that failed, or null
   */
  private void fail(Pipeline pipeline, String jobId, String reason, Pipeline.Refresh refresh) {
    pipeline.consecutiveFailures++;
    long version = pipeline.plan == null ? 0 : pipeline.plan.definitionVersion();
    Mode mode = pipeline.plan == null || pipeline.plan.mode() == null ? Mode.FULL : pipeline.plan.mode();
    Instant scheduledTime = refresh == null ? null : refresh.dataTimestamp();
    events.failed(new RefreshFailed(pipeline.table, version, mode, jobId, reason, pipeline.consecutiveFailures, clock.instant(), scheduledTime));
    LOG.warnf("%s: %s (%d in a row)", pipeline.table, reason, pipeline.consecutiveFailures);
    if (pipeline.consecutiveFailures >= config.jobs().maxConsecutiveFailures()) {
      pipeline.status = Pipeline.Status.SUSPENDED;
      pipeline.refreshWaiting = null;
      events.suspended(new Suspended(pipeline.table, version,
          pipeline.consecutiveFailures + " failures in a row; the last: " + reason + ". ALTER MATERIALIZED TABLE ... RESUME runs it again.", null, clock.instant()));
    } else if (pipeline.status != Pipeline.Status.SUSPENDED) {
      pipeline.status = Pipeline.Status.FAILED;
    }
  }

  /** A scheduled tick's id ends with its scheduled time ({@code <table>@<time>}); else now. */
  private Instant scheduledTimeOf(String tickId) {
    try {
      return Instant.parse(tickId.substring(tickId.lastIndexOf('@') + 1));
    } catch (RuntimeException notATime) {
      return clock.instant();
    }
  }

  private boolean running(String jobId) {
    return flink.job(jobId).map(job -> !job.ended()).orElse(false);
  }

  private static String rootMessage(Throwable error) {
    Throwable deepest = error;
    while (deepest.getCause() != null && deepest.getCause() != deepest) {
      deepest = deepest.getCause();
    }
    String message = deepest.getMessage() == null ? deepest.getClass().getSimpleName() : deepest.getMessage();
    return message.lines().findFirst().orElse(message);
  }

  /** The state of a table, for tests and status views. */
  public Optional<String> status(String table) {
    return Optional.ofNullable(pipelines.get(table)).map(p -> p.status.name());
  }
}
