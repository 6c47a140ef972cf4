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
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new query of a running CONTINUOUS table is switched over, step by step, against a cluster and a
 * warehouse that only record what is asked of them: the old job serves until the staged one has
 * caught up; a failed rename, a failed staged job and a newer version are each handled without
 * touching the table readers read.
 */
class SwitchOversTest {

    private static final String TABLE = "default_catalog.shop.totals";
    private static final String STAGED = TABLE + "__mt_v2";

    @TempDir Path dataDir;

    private Instant now = Instant.parse("2026-12-01T10:00:00Z");
    private final List<Object> sent = new ArrayList<>();
    private final List<LoadProgress> loads = new ArrayList<>();

    /** Every job the cluster knows, by id: its name and state. */
    private final Map<String, FlinkJob> jobs = new LinkedHashMap<>();

    private final Map<String, TreeMap<Long, Instant>> checkpoints = new LinkedHashMap<>();
    private final List<String> cancelled = new ArrayList<>();
    private final List<String> savepointsOf = new ArrayList<>();

    /** Submissions: the Paimon table each job writes, and the state it restores. */
    private final List<String> writes = new ArrayList<>();

    private final List<String> restores = new ArrayList<>();
    private final List<String> warehouseSteps = new ArrayList<>();
    private final List<String> checkpointsAsked = new ArrayList<>();
    private Optional<SourceProgress> progress = Optional.of(new SourceProgress(500, 100));
    private int renameFailuresLeft;

    @Test
    void theOldJobServesUntilTheNewQueryHasCaughtUpThenReadersMoveAtOnce() {
        PipelineManager manager = runningTable();

        changeQuery(manager, 2);
        assertThat(writes).containsExactly(STAGED);
        assertThat(cancelled).as("the old job serves on").isEmpty();
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        SwitchStarted.class,
                        started -> {
                            assertThat(started.fromVersion()).isEqualTo(1);
                            assertThat(started.stagedTable()).isEqualTo(STAGED);
                        });
        String staged = stagedJob();

        manager.poll();
        assertThat(loads)
                .as("the rebuild's progress: the staged job's own load")
                .filteredOn(load -> load.jobId().equals(staged))
                .containsExactly(new LoadProgress(TABLE, 2, staged, 500, 100, false, now));
        progress = Optional.of(new SourceProgress(0, 600));
        later(1);
        manager.poll(); // nothing left to read: a checkpoint triggered after this moment must
        // complete
        assertThat(savepointsOf).isEmpty();
        checkpoint(staged, 1, now.minusMillis(500));
        later(1);
        manager.poll();
        assertThat(savepointsOf).as("an older checkpoint does not count").isEmpty();
        assertThat(loads)
                .as("reported every 5 s at most")
                .filteredOn(load -> load.jobId().equals(staged))
                .hasSize(1);
        assertThat(loads)
                .as("the old job's load is its own version's")
                .filteredOn(load -> load.jobId().equals("old"))
                .isNotEmpty()
                .allMatch(load -> load.definitionVersion() == 1);

        checkpoint(staged, 2, now);
        later(1);
        manager.poll();
        assertThat(loads)
                .as("and a last time once caught up")
                .filteredOn(load -> load.jobId().equals(staged))
                .last()
                .isEqualTo(new LoadProgress(TABLE, 2, staged, 0, 600, true, now));
        assertThat(cancelled).as("the old job stops first").containsExactly("old");
        assertThat(savepointsOf).isEmpty();
        progress = Optional.of(new SourceProgress(0, 610));
        manager.poll();
        assertThat(savepointsOf)
                .as("a metric that may be older than the stop does not count")
                .isEmpty();
        progress = Optional.of(new SourceProgress(3, 610));
        later(1);
        manager.poll();
        assertThat(savepointsOf).as("not before the new job has read everything since").isEmpty();
        progress = Optional.of(new SourceProgress(0, 613));
        later(1);
        manager.poll();
        assertThat(savepointsOf).containsExactly(staged);
        assertThat(cancelled).containsExactly("old");
        assertThat(warehouseSteps).containsExactly("swap " + TABLE + " v2");
        assertThat(writes).containsExactly(STAGED, TABLE);
        assertThat(restores).containsExactly("none", "file:/savepoints/savepoint-" + staged);
        assertThat(sent)
                .filteredOn(SwitchedOver.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(
                        SwitchedOver.class,
                        switched -> {
                            assertThat(switched.definitionVersion()).isEqualTo(2);
                            assertThat(switched.fromVersion()).isEqualTo(1);
                            assertThat(switched.savepoint())
                                    .isEqualTo("file:/savepoints/savepoint-" + staged);
                        });
        assertThat(sent).last().isInstanceOf(JobStarted.class);
        assertThat(manager.status(TABLE)).contains("INITIALIZING");

        // Readers wait for the new job's first commit: a checkpoint is asked for as soon as it
        // runs, once.
        String switchedJob = stagedJob();
        manager.poll();
        manager.poll();
        assertThat(checkpointsAsked).containsExactly(switchedJob);
        assertThat(loads).filteredOn(load -> load.jobId().equals(staged)).hasSize(2);
    }

    @Test
    void renamesThatFailAreTriedAgainWithoutASecondSavepoint() {
        PipelineManager manager = runningTable();
        changeQuery(manager, 2);
        String staged = stagedJob();
        renameFailuresLeft = 1;
        caughtUp(manager, staged);

        assertThat(sent)
                .last()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed ->
                                assertThat(failed.reason())
                                        .startsWith(
                                                "the switch-over's renames failed (the store did"
                                                        + " not answer); they are tried again"));
        assertThat(sent).noneMatch(SwitchedOver.class::isInstance);

        manager.poll();
        assertThat(savepointsOf).containsExactly(staged);
        assertThat(warehouseSteps).containsExactly("swap failed", "swap " + TABLE + " v2");
        assertThat(sent).filteredOn(SwitchedOver.class::isInstance).hasSize(1);
        assertThat(restores).last().isEqualTo("file:/savepoints/savepoint-" + staged);
    }

    @Test
    void aStagedJobThatFailsIsReportedAndStagedAgainAfterTheBackOffWhileTheOldOneServes() {
        PipelineManager manager = runningTable();
        changeQuery(manager, 2);
        String staged = stagedJob();

        jobs.put(staged, new FlinkJob(staged, jobs.get(staged).name(), "FAILED"));
        manager.poll();
        assertThat(sent)
                .last()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed -> {
                            assertThat(failed.reason())
                                    .startsWith(
                                            "the new query's job stopped before the switch"
                                                + " (java.lang.ArithmeticException: / by zero); the"
                                                + " old query keeps serving");
                            assertThat(failed.consecutiveFailures())
                                    .as("not counted towards suspension")
                                    .isEqualTo(1);
                        });
        assertThat(warehouseSteps).containsExactly("drop " + STAGED);
        assertThat(cancelled).as("the old job serves on").isEmpty();
        assertThat(sent).noneMatch(Suspended.class::isInstance);

        manager.poll();
        assertThat(writes).as("not before the back-off").hasSize(1);
        later(1);
        manager.poll();
        assertThat(writes).containsExactly(STAGED, STAGED);
        assertThat(sent).filteredOn(SwitchStarted.class::isInstance).hasSize(2);
    }

    @Test
    void aNewerVersionDuringStagingGivesTheStagingUp() {
        PipelineManager manager = runningTable();
        changeQuery(manager, 2);
        String staged = stagedJob();

        changeQuery(manager, 3);
        assertThat(cancelled).containsExactly(staged);
        assertThat(warehouseSteps).containsExactly("drop " + STAGED);
        assertThat(writes).containsExactly(STAGED, TABLE + "__mt_v3");
        assertThat(jobs.get("old").state()).as("the old job serves on").isEqualTo("RUNNING");
    }

    // ---- the fakes ------------------------------------------------------------------------------

    /** The table runs version 1's query in job "old", taken over at start. */
    private PipelineManager runningTable() {
        PipelineManager manager = manager();
        manager.onDefinition(definition(1));
        manager.onPlan(plan(1));
        jobs.put(
                "old",
                new FlinkJob(
                        "old",
                        "mt:" + TABLE + ":v1:q" + QueryState.fingerprint(definition(1)),
                        "RUNNING"));
        manager.start(List.copyOf(jobs.values()));
        return manager;
    }

    private void changeQuery(PipelineManager manager, long version) {
        manager.onDefinition(definition(version));
        manager.onPlan(plan(version));
    }

    /** The last job submitted. */
    private String stagedJob() {
        return List.copyOf(jobs.keySet()).get(jobs.size() - 1);
    }

    private void caughtUp(PipelineManager manager, String staged) {
        progress = Optional.of(new SourceProgress(0, 600));
        manager.poll();
        later(1);
        checkpoint(staged, 1, now);
        later(1);
        manager.poll(); // the old job stops
        later(1);
        manager.poll(); // the new one has read everything since: its savepoint, the renames, its
        // start
    }

    private void checkpoint(String job, long id, Instant triggered) {
        checkpoints.computeIfAbsent(job, j -> new TreeMap<>()).put(id, triggered);
    }

    private void later(long seconds) {
        now = now.plusSeconds(seconds);
    }

    private PipelineManager manager() {
        JobManagerConfig config = PipelineManagerTest.config(dataDir);
        var warehouse = Warehouse.at(dataDir.resolve("warehouse").toUri().toString());
        PaimonSnapshots snapshots =
                new PaimonSnapshots(warehouse) {
                    @Override
                    public Optional<CommittedSnapshot> latest(String table) {
                        return table.equals(TABLE)
                                ? Optional.of(new CommittedSnapshot(7, now, 1, 10, "APPEND", 7))
                                : Optional.empty();
                    }

                    @Override
                    public boolean exists(String table) {
                        return table.equals(TABLE);
                    }
                };
        RefreshEvents events =
                new RefreshEvents(null, new RefreshMetrics(new SimpleMeterRegistry())) {
                    @Override
                    public void succeeded(
                            RefreshSucceeded
                                    event) {} // the old job's snapshots: not what is tested

                    @Override
                    public void loadProgress(LoadProgress event) {
                        loads.add(event);
                    }

                    @Override
                    public void failed(RefreshFailed event) {
                        sent.add(event);
                    }

                    @Override
                    public void jobStarted(JobStarted event) {
                        sent.add(event);
                    }

                    @Override
                    public void suspended(Suspended event) {
                        sent.add(event);
                    }

                    @Override
                    public void switchStarted(SwitchStarted event) {
                        sent.add(event);
                    }

                    @Override
                    public void switchedOver(SwitchedOver event) {
                        sent.add(event);
                    }
                };
        Clock clock = new TestClock(() -> now);
        FlinkTarget flink = flink();
        return new PipelineManager(
                flink,
                submitter(flink, warehouse),
                snapshots,
                new PaimonPartitions(warehouse),
                new Locations(config),
                config,
                events,
                clock);
    }

    /**
     * Records what is asked of the warehouse; the table's Paimon table was written by version 1's
     * query.
     */
    private JobSubmitter submitter(FlinkTarget flink, Warehouse warehouse) {
        PaimonTables tables =
                new PaimonTables(warehouse) {
                    @Override
                    public Optional<String> writtenBy(String table) {
                        return Optional.of(QueryState.fingerprint(definition(1)));
                    }

                    @Override
                    public boolean ensureTable(TableDefinition definition, RefreshPlan plan) {
                        return false;
                    }

                    @Override
                    public void createStaged(TableDefinition definition, RefreshPlan plan) {}

                    @Override
                    public long swapInStaged(String table, long version) {
                        if (renameFailuresLeft > 0) {
                            renameFailuresLeft--;
                            warehouseSteps.add("swap failed");
                            throw new IllegalStateException(
                                    "cannot rename", new IOException("the store did not answer"));
                        }
                        warehouseSteps.add("swap " + table + " v" + version);
                        return 1_000_000;
                    }

                    @Override
                    public void dropStaged(String table, long version) {
                        warehouseSteps.add("drop " + table + "__mt_v" + version);
                    }
                };
        return new JobSubmitter(flink, warehouse) {
            @Override
            public PaimonTables tables() {
                return tables;
            }

            @Override
            public JobClient submitStreaming(
                    TableDefinition definition,
                    RefreshPlan plan,
                    Map<String, String> options,
                    String target) {
                String id = String.format("%032x", jobs.size() + 1);
                jobs.put(id, new FlinkJob(id, options.get("pipeline.name"), "RUNNING"));
                writes.add(target);
                restores.add(options.getOrDefault("execution.state-recovery.path", "none"));
                return (JobClient)
                        Proxy.newProxyInstance(
                                JobClient.class.getClassLoader(),
                                new Class<?>[] {JobClient.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("getJobID")) {
                                        return JobID.fromHexString(id);
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
            }

            @Override
            public JobClient submitStreaming(
                    TableDefinition definition, RefreshPlan plan, Map<String, String> options) {
                return submitStreaming(definition, plan, options, definition.table());
            }
        };
    }

    private FlinkTarget flink() {
        return (FlinkTarget)
                Proxy.newProxyInstance(
                        FlinkTarget.class.getClassLoader(),
                        new Class<?>[] {FlinkTarget.class},
                        (proxy, method, args) -> {
                            return switch (method.getName()) {
                                case "ensureAvailable" -> null;
                                case "clientConfiguration" -> new Configuration();
                                case "capacity" -> new ClusterCapacity(8, 6, 1, 0);
                                case "sourceProgress" -> progress;
                                case "cancel" -> {
                                    cancelled.add((String) args[0]);
                                    end((String) args[0], "CANCELED");
                                    yield null;
                                }
                                case "jobs" -> List.copyOf(jobs.values());
                                case "job" -> Optional.ofNullable(jobs.get((String) args[0]));
                                case "completedCheckpoints" ->
                                        checkpoints.getOrDefault((String) args[0], new TreeMap<>());
                                case "restarts" -> OptionalLong.of(0);
                                case "failureCause" ->
                                        Optional.of("java.lang.ArithmeticException: / by zero");
                                case "metricsInterval" -> Duration.ofSeconds(1);
                                case "triggerCheckpoint" -> {
                                    checkpointsAsked.add((String) args[0]);
                                    yield new CompletableFuture<Long>(); // taken, not completed yet
                                }
                                case "stopWithSavepoint" -> {
                                    savepointsOf.add((String) args[0]);
                                    end((String) args[0], "FINISHED");
                                    yield "file:/savepoints/savepoint-" + args[0];
                                }
                                default ->
                                        throw new UnsupportedOperationException(method.getName());
                            };
                        });
    }

    private void end(String id, String state) {
        jobs.computeIfPresent(id, (key, job) -> new FlinkJob(job.id(), job.name(), state));
    }

    /** Version {@code version} of the table: each version's query is another. */
    private static TableDefinition definition(long version) {
        return Tables.materialized(
                TABLE,
                version,
                List.of(),
                List.of(),
                "SELECT " + version + " AS v",
                List.of(),
                TableDefinition.Status.ACTIVE);
    }

    private static RefreshPlan plan(long version) {
        return RefreshPlanBuilder.builder()
                .table(TABLE)
                .definitionVersion(version)
                .status(RefreshPlan.Status.ACTIVE)
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
}
