package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.Tables;
import io.mtables.jobmanager.flink.ClusterCapacity;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.flink.SourceProgress;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.infra.RefreshMetrics;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.jobs.PaimonTables;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SUSPEND whose savepoint Flink refuses is not marked done: the job keeps running, the failure is
 * reported, and SUSPEND is tried again later (backing off) until the state is saved. A job the
 * cluster has no slot for waits QUEUED instead of failing.
 */
public class PipelineManagerTest {

    private static final String TABLE = "default_catalog.shop.totals";
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir Path dataDir;

    private final List<Object> sent = new ArrayList<>();
    private Instant now = Instant.parse("2026-12-01T10:00:00Z");
    private int savepointRefusalsLeft;
    private boolean jobRunning = true;
    private long restarts = 1;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private ClusterCapacity capacity = new ClusterCapacity(8, 7, 1, 0);
    private String failureCause = "java.io.IOException: Connection reset by peer";
    private final List<String> submitted = new ArrayList<>();
    private final List<String> cancelled = new ArrayList<>();
    private Optional<SourceProgress> sourceProgress = Optional.empty();
    private int sourceProgressAsked;
    private Optional<PaimonSnapshots.CommittedSnapshot> latestSnapshot = Optional.empty();
    private final TreeMap<Long, Instant> checkpoints = new TreeMap<>();

    /** Whether the cluster lists the job (a job submitted is listed from then on). */
    private boolean jobListed = true;

    @Test
    void aRefusedSavepointLeavesTheJobRunningWithTheErrorAndSuspendIsTriedAgain() {
        PipelineManager manager = runningTable();
        assertThat(manager.status(TABLE)).contains("ACTIVATED");

        savepointRefusalsLeft = 2;
        manager.onDefinition(definition(2, TableDefinition.Status.SUSPENDED));
        manager.onPlan(plan(2, RefreshPlan.Status.SUSPENDED));

        assertThat(manager.status(TABLE)).as("the job keeps running").contains("ACTIVATED");
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed -> {
                            assertThat(failed.definitionVersion()).isEqualTo(2);
                            assertThat(failed.jobId()).isEqualTo(JOB);
                            assertThat(failed.reason())
                                    .isEqualTo(
                                            "SUSPEND could not save the job's state: checkpoint"
                                                + " coordinator is shut down; the job keeps running"
                                                + " and SUSPEND is tried again in 1 s");
                        });

        manager.poll();
        assertThat(sent).as("not tried again before its time").hasSize(1);

        now = now.plusSeconds(1);
        manager.poll();
        assertThat(sent)
                .hasSize(2)
                .last()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed ->
                                assertThat(failed.reason())
                                        .endsWith("SUSPEND is tried again in 2 s"));

        now = now.plusSeconds(1);
        manager.poll();
        assertThat(sent).as("backing off: 2 s now").hasSize(2);

        now = now.plusSeconds(1);
        manager.poll();
        assertThat(sent)
                .hasSize(3)
                .last()
                .isInstanceOfSatisfying(
                        Suspended.class,
                        suspended -> {
                            assertThat(suspended.definitionVersion()).isEqualTo(2);
                            assertThat(suspended.savepoint())
                                    .isEqualTo("file:/savepoints/savepoint-1");
                            assertThat(suspended.cause()).isEqualTo(Suspended.Cause.STATEMENT);
                        });
        assertThat(manager.status(TABLE)).contains("SUSPENDED");

        now = now.plusSeconds(60);
        manager.poll();
        assertThat(sent).as("suspended once").hasSize(3);
    }

    @Test
    void restartsByFlinkAreReportedAndCountedOnceEach() {
        PipelineManager manager = runningTable();

        manager.poll();
        assertThat(sent)
                .as("a restart from before the job was taken over is not reported")
                .isEmpty();

        restarts = 3;
        manager.poll();
        manager.poll();
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed -> {
                            assertThat(failed.jobId()).isEqualTo(JOB);
                            assertThat(failed.trigger()).isEqualTo("CONTINUOUS");
                            assertThat(failed.reason())
                                    .isEqualTo(
                                            "Flink restarted the streaming job (3 restart(s) so"
                                                + " far; it gives up after 5 in a row):"
                                                + " java.io.IOException: Connection reset by peer");
                        });
        assertThat(registry.get("mt.job.restarts").tag("table", TABLE).counter().count())
                .isEqualTo(2.0);
        assertThat(manager.status(TABLE)).as("the job runs").contains("ACTIVATED");
    }

    @Test
    void aPlanWaitingDuringAPollIsActedOnBeforeTheNextTableAndItsJobIsNotTakenForLost() {
        jobListed = false;
        PipelineManager manager = manager();
        manager.onDefinition(definition(1, TableDefinition.Status.ACTIVE));
        manager.start(List.of());
        List<String> order = new ArrayList<>();

        manager.poll(
                () -> {
                    if (!order.isEmpty()) {
                        return false;
                    }
                    order.add("plan acted on");
                    manager.onPlan(plan(1, RefreshPlan.Status.ACTIVE));
                    return true;
                });

        assertThat(order).containsExactly("plan acted on");
        assertThat(submitted)
                .as("the poll listed the jobs again: the new job is not started a second time")
                .hasSize(1);
        assertThat(manager.status(TABLE)).contains("ACTIVATED");
    }

    @Test
    void aStreamingJobWithoutAFreeSlotIsQueuedOnceAndStartsWhenATaskManagerJoins() {
        jobRunning = false;
        capacity = new ClusterCapacity(2, 1, 1, 0); // the one free slot is kept for FULL refreshes
        PipelineManager manager = manager();
        manager.onDefinition(definition(1, TableDefinition.Status.ACTIVE));
        manager.onPlan(plan(1, RefreshPlan.Status.ACTIVE));
        manager.start(List.of());

        assertThat(manager.status(TABLE)).contains("QUEUED");
        assertThat(submitted).as("not submitted: Flink would fail it for want of slots").isEmpty();
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        JobQueued.class,
                        queued -> {
                            assertThat(queued.definitionVersion()).isEqualTo(1);
                            assertThat(queued.slotsNeeded()).isEqualTo(1);
                            assertThat(queued.slotsFree()).isZero();
                            assertThat(queued.slotsTotal()).isEqualTo(2);
                            assertThat(queued.slotsReserved()).isEqualTo(1);
                            assertThat(queued.reason())
                                    .isEqualTo(
                                            "needs 1 task slot; the cluster has 2 in 1 TaskManager,"
                                                    + " 0 free for streaming jobs (1 kept for FULL"
                                                    + " refreshes); it starts when slots free up:"
                                                    + " suspend or drop another table, or add a"
                                                    + " TaskManager");
                        });

        manager.poll();
        manager.poll();
        assertThat(sent).as("queued once, not at every look").hasSize(1);
        assertThat(manager.queued()).hasSize(1);

        capacity = new ClusterCapacity(4, 3, 2, 0); // a second TaskManager registered
        manager.poll();
        assertThat(submitted).hasSize(1);
        assertThat(manager.status(TABLE)).contains("INITIALIZING");
        assertThat(manager.queued()).isEmpty();
        assertThat(sent)
                .hasSize(2)
                .last()
                .isInstanceOfSatisfying(
                        JobStarted.class, started -> assertThat(started.restoredFrom()).isNull());
    }

    @Test
    void jobsBeingPlacedHoldTheirSlotsAlready() {
        jobRunning = false;
        capacity = new ClusterCapacity(4, 3, 1, 2); // two jobs submitted, not yet placed
        PipelineManager manager = manager();
        manager.onDefinition(definition(1, TableDefinition.Status.ACTIVE));
        manager.onPlan(plan(1, RefreshPlan.Status.ACTIVE));
        manager.start(List.of());

        assertThat(manager.status(TABLE)).contains("QUEUED");
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        JobQueued.class,
                        queued ->
                                assertThat(queued.reason())
                                        .contains(
                                                "0 free for streaming jobs (1 kept for FULL"
                                                        + " refreshes, 2 job(s) being placed)"));
    }

    @Test
    void aJobFlinkCouldNotPlaceIsCancelledAndQueuedNotCountedAsAFailure() {
        PipelineManager manager = runningTable();
        manager.poll();
        capacity = new ClusterCapacity(8, 0, 1, 0);
        failureCause =
                "org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could"
                        + " not acquire the minimum required resources.";
        restarts = 2;
        manager.poll();

        assertThat(cancelled).containsExactly(JOB);
        assertThat(manager.status(TABLE)).contains("QUEUED");
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        JobQueued.class,
                        queued ->
                                assertThat(queued.reason())
                                        .startsWith(
                                                "Flink could not place the job on a task slot"
                                                    + " (org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException"));
        assertThat(registry.find("mt.job.restarts").counter())
                .as("not a restart of the table's job")
                .isNull();
    }

    @Test
    void aJobCatchingUpReportsHowFarItIsEveryFewSecondsUntilItsSourcesHaveNothingLeft() {
        PipelineManager manager = runningTable();
        sourceProgress = Optional.of(new SourceProgress(1_000, 250));
        manager.poll();
        now = now.plusSeconds(2);
        manager.poll();
        assertThat(sent)
                .as("once per 5 s")
                .singleElement()
                .isInstanceOfSatisfying(
                        LoadProgress.class,
                        progress -> {
                            assertThat(progress.jobId()).isEqualTo(JOB);
                            assertThat(progress.sourceRecordsBehind()).isEqualTo(1_000);
                            assertThat(progress.sourceRecordsRead()).isEqualTo(250);
                            assertThat(progress.caughtUp()).isFalse();
                        });

        // Fetched to the end (nothing pending) before the last records are emitted and counted, and
        // Flink's metrics may be a metrics interval old (or two, under load): not over until the
        // count holds for two.
        sourceProgress = Optional.of(new SourceProgress(0, 1_000));
        now = now.plusSeconds(3);
        manager.poll();
        assertThat(sent)
                .hasSize(2)
                .last()
                .isInstanceOfSatisfying(
                        LoadProgress.class, progress -> assertThat(progress.caughtUp()).isFalse());
        sourceProgress = Optional.of(new SourceProgress(0, 1_250));
        now = now.plusSeconds(10);
        manager.poll();
        assertThat(sent)
                .hasSize(3)
                .last()
                .isInstanceOfSatisfying(
                        LoadProgress.class, progress -> assertThat(progress.caughtUp()).isFalse());
        now = now.plusSeconds(19);
        manager.poll();
        assertThat(sent)
                .hasSize(4)
                .last()
                .isInstanceOfSatisfying(
                        LoadProgress.class,
                        progress ->
                                assertThat(progress.caughtUp())
                                        .as("the count held less than two metrics intervals")
                                        .isFalse());
        now = now.plusSeconds(1);
        manager.poll();
        assertThat(sent)
                .hasSize(5)
                .last()
                .isInstanceOfSatisfying(
                        LoadProgress.class,
                        progress -> {
                            assertThat(progress.caughtUp()).isTrue();
                            assertThat(progress.sourceRecordsRead()).isEqualTo(1_250);
                        });

        sourceProgress =
                Optional.of(new SourceProgress(40, 1_300)); // a burst later is lag, not a load
        now = now.plusSeconds(60);
        manager.poll();
        assertThat(sent).as("the load is over").hasSize(5);
    }

    @Test
    void aJobWhoseSourcesCannotSayHowFarBehindTheyAreIsNotAskedAfterAMinute() {
        PipelineManager manager = runningTable();
        for (int second = 0; second <= 70; second++) {
            manager.poll();
            now = now.plusSeconds(1);
        }
        assertThat(sourceProgressAsked)
                .as("at every look for a minute, then no more")
                .isEqualTo(61);
        assertThat(sent).isEmpty();
    }

    @Test
    void aSnapshotCommittedWhileTheSourcesWereBehindIsOnlyAsFreshAsWhatTheyHadRead() {
        PipelineManager manager = runningTable();
        Instant start = now;
        sourceProgress =
                Optional.of(new SourceProgress(5_000, 100, Duration.ofHours(1).toMillis()));
        manager.poll();
        checkpointCommitted(1, start.plusMillis(500), start.plusSeconds(1));
        now = start.plusSeconds(1);
        sourceProgress =
                Optional.of(new SourceProgress(0, 5_100, 0)); // caught up after the checkpoint
        manager.poll();
        checkpointCommitted(2, start.plusMillis(2_500), start.plusSeconds(3));
        now = start.plusSeconds(3);
        manager.poll();

        assertThat(sent)
                .filteredOn(RefreshSucceeded.class::isInstance)
                .map(RefreshSucceeded.class::cast)
                .extracting(RefreshSucceeded::snapshotId, RefreshSucceeded::dataTimestamp)
                .as(
                        "the first checkpoint's sources were an hour behind at the look before it;"
                                + " the second's had read everything")
                .containsExactly(
                        Tuple.tuple(1L, start.plusMillis(500).minus(Duration.ofHours(1))),
                        Tuple.tuple(2L, start.plusMillis(2_500)));
    }

    private void checkpointCommitted(long id, Instant triggeredAt, Instant committedAt) {
        checkpoints.put(id, triggeredAt);
        latestSnapshot =
                Optional.of(
                        new PaimonSnapshots.CommittedSnapshot(
                                id, committedAt, 10, 10 * id, "APPEND", id));
    }

    @Test
    void retriesBackOffToAMinute() {
        assertThat(
                        List.of(1, 2, 3, 6, 7, 20).stream()
                                .map(PipelineManager::retryDelay)
                                .map(Duration::toSeconds))
                .containsExactly(1L, 2L, 4L, 32L, 60L, 60L);
    }

    /** A manager that took over the table's running streaming job at start. */
    private PipelineManager runningTable() {
        PipelineManager manager = manager();
        manager.onDefinition(definition(1, TableDefinition.Status.ACTIVE));
        manager.onPlan(plan(1, RefreshPlan.Status.ACTIVE));
        manager.start(
                List.of(
                        new FlinkJob(
                                JOB,
                                "mt:"
                                        + TABLE
                                        + ":v1:q"
                                        + QueryState.fingerprint(
                                                definition(1, TableDefinition.Status.ACTIVE)),
                                "RUNNING")));
        return manager;
    }

    private PipelineManager manager() {
        JobManagerConfig config = config(dataDir);
        var warehouse = Warehouse.at(dataDir.resolve("warehouse").toUri().toString());
        PaimonSnapshots snapshots =
                new PaimonSnapshots(warehouse) {
                    @Override
                    public Optional<CommittedSnapshot> latest(String table) {
                        return latestSnapshot;
                    }
                };
        RefreshEvents events =
                new RefreshEvents(null, new RefreshMetrics(registry)) {
                    @Override
                    public void succeeded(RefreshSucceeded event) {
                        sent.add(event);
                    }

                    @Override
                    public void failed(RefreshFailed event) {
                        sent.add(event);
                    }

                    @Override
                    public void suspended(Suspended event) {
                        sent.add(event);
                    }

                    @Override
                    public void loadProgress(LoadProgress event) {
                        sent.add(event);
                    }

                    @Override
                    public void jobQueued(JobQueued event) {
                        sent.add(event);
                    }

                    @Override
                    public void jobStarted(JobStarted event) {
                        sent.add(event);
                    }
                };
        Clock clock = new TestClock(() -> now);
        return new PipelineManager(
                flink(),
                submitter(),
                snapshots,
                new PaimonPartitions(warehouse),
                new Locations(config),
                config,
                events,
                clock);
    }

    /** Creates no table (it is there) and submits nothing: records each submission. */
    private JobSubmitter submitter() {
        Warehouse warehouse = Warehouse.at(dataDir.resolve("warehouse").toUri().toString());
        PaimonTables tables =
                new PaimonTables(warehouse) {
                    @Override
                    public boolean ensureTable(TableDefinition definition, RefreshPlan plan) {
                        return false;
                    }
                };
        return new JobSubmitter(flink(), warehouse) {
            @Override
            public PaimonTables tables() {
                return tables;
            }

            @Override
            public JobClient submitStreaming(
                    TableDefinition definition, RefreshPlan plan, Map<String, String> jobOptions) {
                submitted.add(jobOptions.get("pipeline.name"));
                jobListed = true;
                return (JobClient)
                        Proxy.newProxyInstance(
                                JobClient.class.getClassLoader(),
                                new Class<?>[] {JobClient.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("getJobID")) {
                                        return JobID.fromHexString(JOB);
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
            }
        };
    }

    /**
     * One streaming job whose savepoints are refused while {@link #savepointRefusalsLeft} lasts.
     */
    private FlinkTarget flink() {
        return (FlinkTarget)
                Proxy.newProxyInstance(
                        FlinkTarget.class.getClassLoader(),
                        new Class<?>[] {FlinkTarget.class},
                        (proxy, method, args) -> {
                            FlinkJob job =
                                    new FlinkJob(
                                            JOB,
                                            "mt:" + TABLE + ":v1:q",
                                            jobRunning ? "RUNNING" : "FINISHED");
                            return switch (method.getName()) {
                                case "ensureAvailable" -> null;
                                case "clientConfiguration" -> new Configuration();
                                case "capacity" -> capacity;
                                case "metricsInterval" -> Duration.ofSeconds(10);
                                case "sourceProgress" -> {
                                    sourceProgressAsked++;
                                    yield sourceProgress;
                                }
                                case "cancel" -> {
                                    cancelled.add((String) args[0]);
                                    jobRunning = false;
                                    yield null;
                                }
                                case "jobs" -> jobListed ? List.of(job) : List.of();
                                case "job" -> Optional.of(job).filter(j -> j.id().equals(args[0]));
                                case "completedCheckpoints" -> new TreeMap<>(checkpoints);
                                case "restarts" -> OptionalLong.of(restarts);
                                case "failureCause" -> Optional.of(failureCause);
                                case "stopWithSavepoint" -> {
                                    if (savepointRefusalsLeft > 0) {
                                        savepointRefusalsLeft--;
                                        throw new IllegalStateException(
                                                "stop-with-savepoint failed",
                                                new IllegalStateException(
                                                        "checkpoint coordinator is shut down"));
                                    }
                                    jobRunning = false;
                                    yield "file:/savepoints/savepoint-1";
                                }
                                default ->
                                        throw new UnsupportedOperationException(method.getName());
                            };
                        });
    }

    private static TableDefinition definition(long version, TableDefinition.Status status) {
        return Tables.materialized(
                TABLE, version, List.of(), List.of(), "SELECT 1", List.of(), status);
    }

    private static RefreshPlan plan(long version, RefreshPlan.Status status) {
        return RefreshPlanBuilder.builder()
                .table(TABLE)
                .definitionVersion(version)
                .status(status)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness(5, "SECOND"))
                .freshnessDeclared(true)
                .checkpointInterval(Duration.ofSeconds(2))
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I,UA,UB,D]")
                .upsertKey(null)
                .upstreamTables(List.of())
                .reasons(List.of("hand-made"))
                .warnings(List.of())
                .plannedAt(Instant.now())
                .build();
    }

    /**
     * The settings the pipelines read: every job included, savepoints on, at most 5 failures in a
     * row.
     */
    public static JobManagerConfig config(Path dataDir) {
        Object jobs =
                settings(
                        JobManagerConfig.Jobs.class,
                        Map.of(
                                "include",
                                ".*",
                                "maxConsecutiveFailures",
                                5,
                                "refreshSlots",
                                1,
                                "silentSourcePatience",
                                Duration.ofMinutes(1)));
        Object flink =
                settings(
                        JobManagerConfig.Flink.class,
                        Map.of(
                                "savepointDir",
                                Optional.of("file:/savepoints"),
                                "checkpointDir",
                                Optional.empty(),
                                "parallelism",
                                1,
                                "stateBackend",
                                "hashmap"));
        Object paimon =
                settings(JobManagerConfig.Paimon.class, Map.of("warehouse", Optional.empty()));
        Object s3 =
                settings(
                        JobManagerConfig.S3.class,
                        Map.of(
                                "endpoint",
                                Optional.empty(),
                                "pathStyleAccess",
                                false,
                                "accessKey",
                                Optional.empty(),
                                "secretKey",
                                Optional.empty()));
        return settings(
                JobManagerConfig.class,
                Map.of(
                        "dataDir",
                        dataDir.toString(),
                        "jobs",
                        jobs,
                        "flink",
                        flink,
                        "paimon",
                        paimon,
                        "s3",
                        s3));
    }

    @SuppressWarnings("unchecked")
    private static <T> T settings(Class<T> type, Map<String, Object> values) {
        return (T)
                Proxy.newProxyInstance(
                        type.getClassLoader(),
                        new Class<?>[] {type},
                        (proxy, method, args) -> {
                            if (!values.containsKey(method.getName())) {
                                throw new UnsupportedOperationException(method.getName());
                            }
                            return values.get(method.getName());
                        });
    }
}
