package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.Tables;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.flink.SourceProgress;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.infra.RefreshMetrics;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.tick.RefreshTick;
import java.io.FileNotFoundException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refresh job's end is never lost: when reading its outcome or sending its event fails, the
 * refresh stays the running one and the next look reports it; after a few failed looks it counts as
 * a failed refresh, with the reason. While it runs, how far it is goes out every few seconds.
 */
class FullRefreshesTest {

    private static final String TABLE = "default_catalog.shop.daily";
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir Path warehouse;

    private final List<Object> sent = new ArrayList<>();
    private int sendFailuresLeft;
    private int readFailuresLeft;
    private Instant now = Instant.parse("2026-12-01T00:00:02Z");

    /** What the refresh job's sources say: with what they have left (Kafka), or read only. */
    private Optional<SourceProgress> sourceProgress = Optional.empty();

    private OptionalLong sourceRecordsRead = OptionalLong.empty();
    private int sourceProgressAsked;

    @Test
    void aRunningRefreshOverKafkaSourcesReportsWhatTheyReadOfWhatTheyHaveEveryFewSeconds() {
        FullRefreshes refreshes = refreshes();
        Pipeline pipeline = running();
        FlinkJob job = new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "RUNNING");

        refreshes.watch(pipeline, job);
        assertThat(sent).as("its sources have not registered their metrics yet").isEmpty();

        sourceProgress = Optional.of(new SourceProgress(0, 0));
        now = now.plusSeconds(1);
        refreshes.watch(pipeline, job);
        assertThat(sent)
                .singleElement()
                .as("before a Kafka source's first fetch nothing is pending: no total yet")
                .extracting("sourceRecordsToRead")
                .isNull();
        sent.clear();

        sourceProgress = Optional.of(new SourceProgress(300, 700));
        now = now.plusSeconds(5);
        refreshes.watch(pipeline, job);
        assertThat(sent)
                .containsExactly(
                        new RefreshProgress(
                                TABLE,
                                1,
                                JOB,
                                700,
                                1_000L,
                                Instant.parse("2026-12-01T00:00:01Z"),
                                now));

        sourceProgress = Optional.of(new SourceProgress(100, 900));
        now = now.plusSeconds(4);
        refreshes.watch(pipeline, job);
        assertThat(sent).as("every 5 s at most").hasSize(1);
        now = now.plusSeconds(1);
        refreshes.watch(pipeline, job);
        assertThat(sent).last().extracting("sourceRecordsRead").isEqualTo(900L);

        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        assertThat(sent).last().isInstanceOf(RefreshSucceeded.class);
    }

    @Test
    void aRefreshOverPaimonSourcesReportsWhatTheyReadOfTheRecordsCountedBeforeItRan() {
        FullRefreshes refreshes = refreshes();
        Pipeline pipeline = running();
        pipeline.refreshRecordsToRead = 4_000L;
        sourceRecordsRead = OptionalLong.of(1_000);

        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "RUNNING"));

        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        RefreshProgress.class,
                        progress -> {
                            assertThat(progress.sourceRecordsRead()).isEqualTo(1_000);
                            assertThat(progress.sourceRecordsToRead()).isEqualTo(4_000L);
                        });
        assertThat(sourceProgressAsked)
                .as("sources that cannot say what they have left are not asked again")
                .isEqualTo(1);
        now = now.plusSeconds(5);
        sourceRecordsRead = OptionalLong.of(2_000);
        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "RUNNING"));
        assertThat(sent).last().extracting("sourceRecordsRead").isEqualTo(2_000L);
        assertThat(sourceProgressAsked).isEqualTo(1);
    }

    @Test
    void aRefreshFoundOnTheClusterAtStartReportsNothingItsStartNotKnown() {
        FullRefreshes refreshes = refreshes();
        Pipeline pipeline = new Pipeline(TABLE);
        pipeline.definition = running().definition;
        pipeline.plan = running().plan;
        FlinkJob job = new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "RUNNING");
        refreshes.attach(pipeline, job, "r1");
        sourceProgress = Optional.of(new SourceProgress(300, 700));

        refreshes.watch(pipeline, job);

        assertThat(sent).isEmpty();
    }

    @Test
    void theRecordsToReadAreCountedOnlyForWholeReadsOfMaterializedTables() {
        var location = Warehouse.at(warehouse.toUri().toString());
        PaimonSnapshots snapshots =
                new PaimonSnapshots(location) {
                    @Override
                    public OptionalLong totalRecords(String table, long snapshotId) {
                        return OptionalLong.of(table.endsWith("orders") ? 3_000 : 1_000);
                    }
                };
        FullRefreshProgress progress = new FullRefreshProgress(noFlink(), snapshots, null, null);
        TableDefinition orders = table("default_catalog.shop.orders");
        TableDefinition users = table("default_catalog.shop.users");
        TableDefinition overBoth =
                Tables.materialized(
                        TABLE,
                        1,
                        List.of(),
                        List.of(),
                        "SELECT 1",
                        List.of(
                                Tables.materializedSource(orders),
                                Tables.materializedSource(users)),
                        TableDefinition.Status.ACTIVE);
        Map<String, Long> pinned = Map.of(orders.table(), 4L, users.table(), 9L);

        assertThat(progress.recordsToRead(overBoth, run(pinned, null, Map.of()))).isEqualTo(4_000L);
        assertThat(
                        progress.recordsToRead(
                                overBoth,
                                run(pinned, List.of(Map.of("day", "2026-12-01")), Map.of())))
                .as("a refresh of the changed partitions reads part of its inputs")
                .isNull();
        assertThat(progress.recordsToRead(overBoth, run(pinned, null, Map.of("day", "2026-12-01"))))
                .as("a refresh of one partition too")
                .isNull();
        TableDefinition overKafka =
                Tables.materialized(
                        TABLE,
                        1,
                        List.of(),
                        List.of(),
                        "SELECT 1",
                        List.of(
                                Tables.materializedSource(orders),
                                Tables.kafkaSource(
                                        "default_catalog.shop.events",
                                        "id BIGINT",
                                        "events",
                                        "json",
                                        "127.0.0.1:9092")),
                        TableDefinition.Status.ACTIVE);
        assertThat(progress.recordsToRead(overKafka, run(pinned, null, Map.of())))
                .as("a Kafka source's records are its own metrics' to say")
                .isNull();
    }

    private static RefreshScopes.Run run(
            Map<String, Long> pinned,
            List<Map<String, String>> changedPartitions,
            Map<String, String> baseline) {
        return new RefreshScopes.Run(
                "INSERT OVERWRITE ...",
                pinned,
                new Pipeline.RefreshScope(Map.of(), changedPartitions, baseline, 0));
    }

    private static TableDefinition table(String name) {
        return Tables.materialized(
                name,
                1,
                List.of(),
                List.of(),
                "SELECT 1",
                List.of(),
                TableDefinition.Status.ACTIVE);
    }

    @Test
    void aFinishedRefreshWhoseReportFailedIsReportedAtTheNextLook() {
        FullRefreshes refreshes = refreshes();
        Pipeline pipeline = running();
        readFailuresLeft = 1;
        sendFailuresLeft = 1;

        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        assertThat(sent).as("neither reading nor sending worked yet").isEmpty();
        assertThat(pipeline.refreshJobId).as("still the running refresh").isEqualTo(JOB);

        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        RefreshSucceeded.class,
                        succeeded -> {
                            assertThat(succeeded.snapshotId()).isEqualTo(7);
                            assertThat(succeeded.rowsWritten()).isEqualTo(3);
                            assertThat(succeeded.jobId()).isEqualTo(JOB);
                        });
        assertThat(pipeline.refreshJobId).isNull();
        assertThat(pipeline.lastSnapshotId).isEqualTo(7);
        assertThat(pipeline.status()).isEqualTo(Pipeline.Status.ACTIVATED);

        refreshes.watch(pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        assertThat(sent).as("reported once").hasSize(1);
    }

    @Test
    void aRefreshWhoseEndCannotBeReportedCountsAsFailedWithTheReason() {
        FullRefreshes refreshes = refreshes();
        Pipeline pipeline = running();
        readFailuresLeft = Integer.MAX_VALUE;

        for (int look = 1; look <= FullRefreshes.END_REPORT_ATTEMPTS; look++) {
            refreshes.watch(
                    pipeline, new FlinkJob(JOB, "mt:" + TABLE + ":v1:refresh:r1", "FINISHED"));
        }

        assertThat(sent)
                .singleElement()
                .isInstanceOfSatisfying(
                        RefreshFailed.class,
                        failed -> {
                            assertThat(failed.reason())
                                    .contains(
                                            "the refresh r1 ended FINISHED but its outcome could"
                                                    + " not be reported",
                                            "manifest is gone");
                            assertThat(failed.consecutiveFailures()).isEqualTo(1);
                            assertThat(failed.trigger()).isEqualTo("MANUAL");
                        });
        assertThat(pipeline.refreshJobId).isNull();
        assertThat(pipeline.consecutiveFailures).isEqualTo(1);
    }

    private Pipeline running() {
        Pipeline pipeline = new Pipeline(TABLE);
        pipeline.definition =
                Tables.materialized(
                        TABLE,
                        1,
                        List.of(),
                        List.of(),
                        "SELECT 1",
                        List.of(),
                        TableDefinition.Status.ACTIVE);
        pipeline.plan = Tables.full(TABLE, 1);
        pipeline.refreshJobId = JOB;
        pipeline.refreshRunning =
                new Pipeline.Refresh(
                        "r1",
                        Map.of(),
                        Instant.parse("2026-12-01T00:00:00Z"),
                        RefreshTick.Reason.MANUAL);
        pipeline.refreshStartedAt = Instant.parse("2026-12-01T00:00:01Z");
        return pipeline;
    }

    private FullRefreshes refreshes() {
        var location = Warehouse.at(warehouse.toUri().toString());
        PaimonSnapshots snapshots =
                new PaimonSnapshots(location) {
                    @Override
                    public Optional<CommittedSnapshot> latest(String table) {
                        return Optional.of(
                                new CommittedSnapshot(
                                        7,
                                        Instant.parse("2026-12-01T00:00:05Z"),
                                        3,
                                        3,
                                        "OVERWRITE",
                                        Long.MAX_VALUE));
                    }
                };
        PaimonPartitions partitions =
                new PaimonPartitions(location) {
                    @Override
                    public long rowsWritten(String table, long afterId, long upToId) {
                        if (readFailuresLeft > 0) {
                            readFailuresLeft--;
                            throw new IllegalStateException(
                                    "cannot read snapshot 7",
                                    new FileNotFoundException("manifest is gone"));
                        }
                        return 3;
                    }
                };
        RefreshEvents events =
                new RefreshEvents(null, new RefreshMetrics(new SimpleMeterRegistry())) {
                    @Override
                    public void succeeded(RefreshSucceeded event) {
                        send(event);
                    }

                    @Override
                    public void failed(RefreshFailed event) {
                        send(event);
                    }

                    @Override
                    public void refreshProgress(RefreshProgress event) {
                        send(event);
                    }
                };
        JobManagerConfig config = config();
        Clock clock = new TestClock(() -> now);
        PipelineReports reports = new PipelineReports(events, snapshots, config, clock);
        return new FullRefreshes(
                flink(),
                null,
                config,
                reports,
                snapshots,
                partitions,
                new ReplacedInputs(null, null, null, reports, clock),
                clock);
    }

    private void send(Object event) {
        if (sendFailuresLeft > 0) {
            sendFailuresLeft--;
            throw new IllegalStateException("mt.refresh.events did not acknowledge within 30 s");
        }
        sent.add(event);
    }

    /** Only {@code jobs.max-consecutive-failures} is read here. */
    private static JobManagerConfig config() {
        JobManagerConfig.Jobs jobs =
                (JobManagerConfig.Jobs)
                        Proxy.newProxyInstance(
                                JobManagerConfig.class.getClassLoader(),
                                new Class<?>[] {JobManagerConfig.Jobs.class},
                                (proxy, method, args) ->
                                        method.getName().equals("maxConsecutiveFailures")
                                                ? 5
                                                : null);
        return (JobManagerConfig)
                Proxy.newProxyInstance(
                        JobManagerConfig.class.getClassLoader(),
                        new Class<?>[] {JobManagerConfig.class},
                        (proxy, method, args) -> method.getName().equals("jobs") ? jobs : null);
    }

    /** A cluster that only says what the refresh job's sources have read. */
    private FlinkTarget flink() {
        return (FlinkTarget)
                Proxy.newProxyInstance(
                        FlinkTarget.class.getClassLoader(),
                        new Class<?>[] {FlinkTarget.class},
                        (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "sourceProgress" -> {
                                        sourceProgressAsked++;
                                        yield sourceProgress;
                                    }
                                    case "sourceRecordsRead" -> sourceRecordsRead;
                                    default ->
                                            throw new UnsupportedOperationException(
                                                    method.getName());
                                });
    }

    private static FlinkTarget noFlink() {
        return (FlinkTarget)
                Proxy.newProxyInstance(
                        FlinkTarget.class.getClassLoader(),
                        new Class<?>[] {FlinkTarget.class},
                        (proxy, method, args) -> {
                            throw new UnsupportedOperationException(method.getName());
                        });
    }
}
