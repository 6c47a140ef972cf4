package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.capture.CaptureSnapshot;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The job manager's events show in DESCRIBE and information_schema; a table it suspended can be
 * resumed.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class RefreshStatusIT {

    private static final String DB = "status_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String JOB = "0e10ab6e545af315ea545a8e9d9fe95d";

    @Test
    void statusFollowsTheJobManagersEventsAndAnAutoSuspendedTableResumes() {
        DialectIT.awaitReady();
        String table = "default_catalog." + DB + ".mt";
        post(
                "CREATE TABLE " + DB + ".src (id BIGINT, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".mt FRESHNESS = INTERVAL '5' SECOND AS SELECT id, v FROM "
                        + DB
                        + ".src",
                202);
        describe(table, List.of("refresh.status", "INITIALIZING"));

        try (TopicProbe probe = new TopicProbe()) {
            String waiting =
                    "needs 1 task slot; the cluster has 2 in 1 TaskManager, 0 free for streaming"
                            + " jobs (1 kept for FULL refreshes); it starts when slots free up";
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_QUEUED_V1,
                    table,
                    new JobQueued(table, 1, waiting, 1, 0, 2, 1, Instant.now()));
            describe(
                    table,
                    List.of("refresh.status", "QUEUED"),
                    List.of("refresh.queued_reason", waiting));
            post(
                            "SELECT status FROM information_schema.materialized_tables WHERE"
                                    + " table_name = '"
                                    + table
                                    + "'",
                            200)
                    .then()
                    .body("rows", hasItem(List.of("QUEUED")));

            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_STARTED_V1,
                    table,
                    new JobStarted(
                            table,
                            1,
                            RefreshPlan.Mode.CONTINUOUS,
                            JOB,
                            "mt:" + table + ":v1:qabc",
                            null,
                            Instant.now()));
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.LOAD_PROGRESS_V1,
                    table,
                    new LoadProgress(
                            table,
                            1,
                            JOB,
                            1_250_000,
                            3_400_000,
                            false,
                            Instant.parse("2026-12-01T17:00:00Z")));
            describe(
                    table,
                    List.of(
                            "refresh.initial_load",
                            "catching up (v1): 73.1% of its sources read, 1,250,000 source records"
                                    + " to read, 3,400,000 read so far, as of"
                                    + " 2026-12-01T17:00:00Z"));
            // Ten seconds later, 100,000 more read: 10,000 a second, so 1,150,000 left take 115 s.
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.LOAD_PROGRESS_V1,
                    table,
                    new LoadProgress(
                            table,
                            1,
                            JOB,
                            1_150_000,
                            3_500_000,
                            false,
                            Instant.parse("2026-12-01T17:00:10Z")));
            describe(
                    table,
                    List.of(
                            "refresh.initial_load",
                            "catching up (v1): 75.3% of its sources read, 1,150,000 source records"
                                    + " to read, 3,500,000 read so far at 10,000 a second: about 1"
                                    + " min 55 s left, as of 2026-12-01T17:00:10Z"));
            post(
                            "SELECT ROUND(load_progress, 1), load_time_left FROM"
                                    + " information_schema.materialized_tables WHERE table_name = '"
                                    + table
                                    + "'",
                            200)
                    .then()
                    .body("rows", hasItem(List.of(75.3f, 115000)));
            awaitMetric("mt_table_load_time_left_seconds{table=\"" + table + "\"} 115.0");
            awaitMetric(
                    "mt_table_load_progress_ratio{table=\""
                            + table
                            + "\"} 0.75268"); // 3,500,000 of 4,650,000
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.LOAD_PROGRESS_V1,
                    table,
                    new LoadProgress(
                            table,
                            1,
                            JOB,
                            0,
                            4_650_000,
                            true,
                            Instant.parse("2026-12-01T17:03:00Z")));
            describe(
                    table,
                    List.of(
                            "refresh.initial_load",
                            "caught up at 2026-12-01T17:03:00Z (v1): 4,650,000 source records"
                                    + " read"));
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.REFRESH_SUCCEEDED_V1,
                    table,
                    new RefreshSucceeded(
                            table,
                            1,
                            RefreshPlan.Mode.CONTINUOUS,
                            Map.of(),
                            3,
                            10,
                            Instant.now(),
                            Instant.parse("2026-11-29T12:00:00Z"),
                            Instant.now(),
                            JOB));
            describe(
                    table,
                    List.of("refresh.status", "ACTIVATED"),
                    List.of("refresh.job_id", JOB),
                    List.of("refresh.last_snapshot_id", "3"),
                    List.of("refresh.last_refresh", "2026-11-29T12:00:00Z"));
            post(
                            "SELECT status, job_id FROM information_schema.materialized_tables"
                                    + " WHERE table_name = '"
                                    + table
                                    + "'",
                            200)
                    .then()
                    .body("rows", hasItem(List.of("ACTIVATED", JOB)));

            post("ALTER MATERIALIZED TABLE " + DB + ".mt RESUME", 409);
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.SUSPENDED_V1,
                    table,
                    new Suspended(
                            table,
                            1,
                            "5 failures in a row; the last: boom.",
                            null,
                            Instant.now(),
                            Suspended.Cause.FAILURES));
            describe(
                    table,
                    List.of("refresh.status", "SUSPENDED"),
                    List.of("refresh.last_error", "5 failures in a row; the last: boom."));
            awaitMetric("mt_table_suspended_after_failures{table=\"" + table + "\"} 1.0");
            awaitMetric("mt_table_suspended{table=\"" + table + "\"} 1.0");
        }
        post("ALTER MATERIALIZED TABLE " + DB + ".mt RESUME", 202);
        describe(table, List.of("version", "2"));
    }

    @Test
    void aSuspendWhoseSavepointFailedShowsTheFailureUntilTheJobManagerSuspends() {
        DialectIT.awaitReady();
        String table = "default_catalog." + DB + ".held";
        post(
                "CREATE TABLE "
                        + DB
                        + ".held_src (id BIGINT, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".held FRESHNESS = INTERVAL '5' SECOND AS SELECT id, v FROM "
                        + DB
                        + ".held_src",
                202);
        try (TopicProbe probe = new TopicProbe()) {
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_STARTED_V1,
                    table,
                    new JobStarted(
                            table,
                            1,
                            RefreshPlan.Mode.CONTINUOUS,
                            JOB,
                            "mt:" + table + ":v1:qabc",
                            null,
                            Instant.now()));
            describe(table, List.of("refresh.status", "ACTIVATED"));
            post("ALTER MATERIALIZED TABLE " + DB + ".held SUSPEND", 202);
            describe(table, List.of("version", "2"), List.of("refresh.status", "SUSPENDED"));

            String refused =
                    "SUSPEND could not save the job's state: checkpoint coordinator is shut down;"
                            + " the job keeps running and SUSPEND is tried again in 1 s";
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.REFRESH_FAILED_V1,
                    table,
                    new RefreshFailed(
                            table,
                            2,
                            RefreshPlan.Mode.CONTINUOUS,
                            JOB,
                            refused,
                            1,
                            Instant.now(),
                            null));
            describe(
                    table,
                    List.of("refresh.status", "FAILED"),
                    List.of("refresh.last_error", refused));

            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.SUSPENDED_V1,
                    table,
                    new Suspended(
                            table,
                            2,
                            "ALTER MATERIALIZED TABLE ... SUSPEND",
                            "file:/tmp/savepoint-1",
                            Instant.now(),
                            Suspended.Cause.STATEMENT));
            describe(table, List.of("refresh.status", "SUSPENDED"));
            awaitMetric("mt_table_suspended_after_failures{table=\"" + table + "\"} 0.0");
            awaitMetric("mt_table_suspended{table=\"" + table + "\"} 1.0");
        }
    }

    @Test
    void aRunningFullRefreshAndARebuildBesideTheTableSayHowFarTheyAreAndHowLongIsLeft() {
        DialectIT.awaitReady();
        String full = "default_catalog." + DB + ".full_mt";
        String rebuilt = "default_catalog." + DB + ".rebuilt";
        String source = "default_catalog." + DB + ".work_src";
        post("CREATE TABLE " + source + " (id BIGINT) WITH ('connector' = 'datagen')", 202);
        for (String table : List.of(full, rebuilt)) {
            post(
                    "CREATE MATERIALIZED TABLE "
                            + table
                            + " FRESHNESS = INTERVAL '5' SECOND AS SELECT id FROM "
                            + source,
                    202);
        }
        String refreshJob = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f";
        String servingJob = "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d";
        String stagedJob = "0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e";
        // Times of now: a refresh not reported on for a minute is not running any more.
        Instant started = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        try (TopicProbe probe = new TopicProbe()) {
            // A FULL refresh 30 s in, a quarter through: 40,000 records a second, 90 s left.
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_STARTED_V1,
                    full,
                    new JobStarted(
                            full,
                            1,
                            RefreshPlan.Mode.FULL,
                            refreshJob,
                            "mt:" + full + ":v1:refresh:r1",
                            null,
                            started));
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.REFRESH_PROGRESS_V1,
                    full,
                    new RefreshProgress(
                            full,
                            1,
                            refreshJob,
                            1_200_000,
                            4_800_000L,
                            started,
                            started.plusSeconds(30)));
            describe(
                    full,
                    List.of(
                            "refresh.running",
                            "refreshing since "
                                    + started
                                    + " (v1, job "
                                    + refreshJob
                                    + "): 25.0% of the 4,800,000 source records it reads,"
                                    + " 1,200,000 read so far at 40,000 a second: about 1 min 30 s"
                                    + " left, as of "
                                    + started.plusSeconds(30)));
            assertWork(full, "refresh_progress, refresh_time_left", List.of(25.0f, 90000));
            awaitMetric("mt_table_refresh_progress_ratio{table=\"" + full + "\"} 0.25");
            awaitMetric("mt_table_refresh_time_left_seconds{table=\"" + full + "\"} 90.0");

            // Its rows replaced, the other table's query is read anew beside it: half through.
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_STARTED_V1,
                    rebuilt,
                    new JobStarted(
                            rebuilt,
                            1,
                            RefreshPlan.Mode.CONTINUOUS,
                            servingJob,
                            "mt:" + rebuilt + ":v1:q",
                            null,
                            started));
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.SWITCH_STARTED_V1,
                    rebuilt,
                    new SwitchStarted(
                            rebuilt,
                            1,
                            1,
                            null,
                            stagedJob,
                            "mt:" + rebuilt + ":v1:q2",
                            rebuilt + "__mt_v1",
                            started,
                            source,
                            null));
            for (long[] readAndBehind : new long[][] {{100_000, 300_000}, {200_000, 200_000}}) {
                StatementRequests.sendRefreshEvent(
                        probe,
                        Contracts.LOAD_PROGRESS_V1,
                        rebuilt,
                        new LoadProgress(
                                rebuilt,
                                1,
                                stagedJob,
                                readAndBehind[1],
                                readAndBehind[0],
                                false,
                                started.plusSeconds(readAndBehind[0] / 10_000)));
            }
            describe(
                    rebuilt,
                    List.of(
                            "refresh.rebuild",
                            "rebuilding since "
                                    + started
                                    + ": the rows of "
                                    + source
                                    + " were replaced, so the query of v1 is read anew from them"
                                    + " into "
                                    + rebuilt
                                    + "__mt_v1 (job "
                                    + stagedJob
                                    + "); readers read the rows from before until it has caught"
                                    + " up; catching up (v1): 50.0% of its sources read, 200,000"
                                    + " source records to read, 200,000 read so far at 10,000 a"
                                    + " second: about 20 s left, as of "
                                    + started.plusSeconds(20)));
            assertWork(
                    rebuilt,
                    "rebuild_progress, rebuild_time_left, load_progress",
                    java.util.Arrays.asList(50.0f, 20000, null));
            awaitMetric("mt_table_rebuild_progress_ratio{table=\"" + rebuilt + "\"} 0.5");

            // The refresh ends: no progress is left to show.
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.REFRESH_SUCCEEDED_V1,
                    full,
                    new RefreshSucceeded(
                            full,
                            1,
                            RefreshPlan.Mode.FULL,
                            Map.of(),
                            2,
                            4_800_000,
                            started,
                            started.plusSeconds(125),
                            started,
                            refreshJob));
            assertWork(
                    full,
                    "refresh_progress, refresh_time_left",
                    java.util.Arrays.asList(null, null));
        }
    }

    @Test
    void theCapturesSnapshotOfItsSourcesSaysHowFarTheInitialLoadIsBeforeItsRowsCanBeRead() {
        DialectIT.awaitReady();
        String topic = "cdc." + DB + ".users";
        String other = "cdc." + DB + ".domains";
        post(
                "CREATE TABLE "
                        + DB
                        + ".users (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' ="
                        + " 'kafka', 'topic' = '"
                        + topic
                        + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                        + io.mtables.testing.kafka.KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        String table = "default_catalog." + DB + ".user_count";
        post(
                "CREATE MATERIALIZED TABLE "
                        + table
                        + " FRESHNESS = INTERVAL '5' SECOND AS SELECT COUNT(*) AS n FROM "
                        + DB
                        + ".users",
                202);
        // Times of now: a snapshot the capture stopped reporting on for 2 minutes is not under way.
        Instant started = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        try (TopicProbe probe = new TopicProbe()) {
            // The snapshot reads users and domains, 20 s in: 450,000 + 50,000 of about
            // 1,000,000 + 100,000 rows, 25,000 a second, so 600,000 rows take 24 s more.
            for (CaptureSnapshot report :
                    List.of(
                            new CaptureSnapshot(
                                    topic,
                                    DB + ".users",
                                    450_000,
                                    1_000_000L,
                                    false,
                                    started,
                                    started.plusSeconds(20)),
                            new CaptureSnapshot(
                                    other,
                                    DB + ".domains",
                                    50_000,
                                    100_000L,
                                    false,
                                    started,
                                    started.plusSeconds(20)))) {
                StatementRequests.sendEvent(
                        probe,
                        Topics.CAPTURE_STATUS,
                        Contracts.CAPTURE_SNAPSHOT_V1,
                        report.topic(),
                        report);
            }
            describe(
                    table,
                    List.of(
                            "refresh.source_snapshot",
                            "the capture is snapshotting "
                                    + DB
                                    + ".users (and 1 more table) since "
                                    + started
                                    + ": 500,000 of about 1,100,000 rows read (PostgreSQL's"
                                    + " estimate), 45.5% at 25,000 a second: about 24 s left; its"
                                    + " rows reach Kafka together when it ends, as of "
                                    + started.plusSeconds(20)));
            assertWork(
                    table,
                    "ROUND(snapshot_progress, 1), snapshot_time_left",
                    List.of(45.5f, 24000));
            awaitMetric("mt_table_snapshot_time_left_seconds{table=\"" + table + "\"} 24.0");

            for (String[] done : new String[][] {{topic, "users"}, {other, "domains"}}) {
                StatementRequests.sendEvent(
                        probe,
                        Topics.CAPTURE_STATUS,
                        Contracts.CAPTURE_SNAPSHOT_V1,
                        done[0],
                        new CaptureSnapshot(
                                done[0],
                                DB + "." + done[1],
                                1_000_000,
                                1_000_000L,
                                true,
                                started,
                                started.plusSeconds(44)));
            }
            assertWork(
                    table,
                    "snapshot_progress, snapshot_time_left",
                    java.util.Arrays.asList(null, null));
        }
    }

    /** The table's row of information_schema.materialized_tables has these values, in time. */
    private static void assertWork(String table, String columns, List<?> values) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                post(
                                                "SELECT "
                                                        + columns
                                                        + " FROM"
                                                        + " information_schema.materialized_tables"
                                                        + " WHERE table_name = '"
                                                        + table
                                                        + "'",
                                                200)
                                        .then()
                                        .body("rows", hasItem(values)));
    }

    /**
     * A line of ddl-service's /q/metrics that starts so, within the 5 s its table gauges take to
     * appear.
     */
    private static void awaitMetric(String line) {
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(
                        () ->
                                org.assertj.core.api.Assertions.assertThat(
                                                StatementRequests.metrics().lines())
                                        .anyMatch(l -> l.startsWith(line)));
    }

    private static void describe(String table, List<?>... rows) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () -> {
                            var body = post("DESCRIBE MATERIALIZED TABLE " + table, 200).then();
                            for (List<?> row : rows) {
                                body.body("rows", hasItem(row));
                            }
                        });
    }
}
