package io.mtables.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.TopicProbe;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The user's path through ddl-service, planner-service and job-manager-service as separate
 * processes, on the embedded Flink cluster: CREATE over REST, rows through Kafka, SELECT over REST;
 * then the job manager is stopped, killed, and the Flink cluster itself is killed, and no row is
 * lost or counted twice.
 */
class DataPlaneAcrossServicesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DATA = Path.of("target/system-data").toAbsolutePath();
    private static final int FLINK_PORT = 18185;
    private static final String DB = "sys_" + UUID.randomUUID().toString().substring(0, 8);
    private static ServiceProcess ddl;
    private static ServiceProcess planner;
    private static ServiceProcess jobManager;
    private static ServiceProcess scheduler;

    @BeforeAll
    static void startServices() throws Exception {
        killCluster();
        deleteRecursively(DATA);
        startEveryService();
    }

    private static ServiceProcess ddl() {
        return new ServiceProcess(
                "ddl-service", 18081, "mt.data-dir=" + DATA, "mt.freshness.alert-grace=10s");
    }

    private static ServiceProcess planner() {
        return new ServiceProcess("planner-service", 18082);
    }

    private static ServiceProcess scheduler() {
        return new ServiceProcess(
                "refresh-scheduler-service", 18083, "mt.scheduler.catch-up-window=2s");
    }

    private static ServiceProcess jobManager() {
        return new ServiceProcess(
                "job-manager-service",
                18084,
                "mt.data-dir=" + DATA,
                "mt.flink.embedded.port=" + FLINK_PORT,
                "mt.flink.embedded.task-slots=4",
                "mt.jobs.include=default_catalog\\." + DB + "\\..*");
    }

    @AfterAll
    static void stopServices() throws Exception {
        for (ServiceProcess service : new ServiceProcess[] {scheduler, jobManager, planner, ddl}) {
            if (service != null) {
                service.stop();
            }
        }
        killCluster();
    }

    @Test
    void rowsSurviveRestartsAndKillsOfTheJobManagerAndOfFlink() throws Exception {
        String topic = DB + "_clicks";
        post(
                "CREATE TABLE "
                        + DB
                        + ".clicks (id BIGINT, category STRING) WITH ('connector' = 'kafka',"
                        + " 'topic' = '"
                        + topic
                        + "', 'format' = 'json',"
                        + " 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".by_category FRESHNESS = INTERVAL '2' SECOND AS SELECT category,"
                        + " COUNT(*) AS n FROM "
                        + DB
                        + ".clicks GROUP BY category",
                202);
        try (TopicProbe probe = new TopicProbe()) {
            clicks(probe, topic, 0, 30);
            awaitCounts(10);
            String job = describe("refresh.job_id");
            assertThat(describe("refresh.status")).isEqualTo("ACTIVATED");

            jobManager.stop();
            clicks(probe, topic, 30, 60);
            jobManager = jobManager().start();
            awaitCounts(20);
            assertThat(runningJobs())
                    .as("the restarted job manager re-attached to the running job")
                    .containsExactly(job);

            jobManager.kill();
            clicks(probe, topic, 60, 90);
            jobManager = jobManager().start();
            awaitCounts(30);
            assertThat(runningJobs())
                    .as("after kill -9 of the job manager, still the same one job")
                    .containsExactly(job);

            killCluster();
            clicks(probe, topic, 90, 120);
            awaitCounts(40);
            assertThat(runningJobs())
                    .as("one job again, restored from its checkpoint")
                    .hasSize(1)
                    .doesNotContain(job);
            await().during(Duration.ofSeconds(4))
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () ->
                                    post(
                                                    "SELECT category, n FROM "
                                                            + DB
                                                            + ".by_category ORDER BY category",
                                                    200)
                                            .then()
                                            .body(
                                                    "rows",
                                                    org.hamcrest.Matchers.equalTo(
                                                            List.of(
                                                                    List.of("a", 40),
                                                                    List.of("b", 40),
                                                                    List.of("c", 40)))));
        }

        post("DROP MATERIALIZED TABLE " + DB + ".by_category", 202);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(runningJobs()).isEmpty());
        post("SELECT * FROM " + DB + ".by_category", 404);
    }

    /**
     * A CONTINUOUS table over a change stream, a FULL table over it and a FULL table over that one,
     * all through the REST front door: the scheduler refreshes the third only after the second has
     * refreshed for the same minute, and the rows are right at the end of the chain.
     */
    @Test
    void aChainOfThreeTablesRefreshesInDependencyOrder() throws Exception {
        String topic = DB + "_staff";
        post(
                "CREATE TABLE "
                        + DB
                        + ".staff (id BIGINT NOT NULL, dept STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('connector' = 'kafka', 'topic' = '"
                        + topic
                        + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".staff_ods FRESHNESS = INTERVAL '2' SECOND AS SELECT id, dept FROM "
                        + DB
                        + ".staff",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".per_dept FRESHNESS = INTERVAL '1' MINUTE REFRESH_MODE = FULL AS SELECT"
                        + " dept, COUNT(*) AS n FROM "
                        + DB
                        + ".staff_ods GROUP BY dept",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".large_depts FRESHNESS = INTERVAL '1' MINUTE REFRESH_MODE = FULL AS"
                        + " SELECT dept, n FROM "
                        + DB
                        + ".per_dept WHERE n >= 2",
                202);
        String perDept = "default_catalog." + DB + ".per_dept";
        String large = "default_catalog." + DB + ".large_depts";
        try (TopicProbe probe = new TopicProbe().tail("mt.refresh.ticks")) {
            for (int id = 1; id <= 5; id++) {
                String after =
                        "{\"id\":"
                                + id
                                + ",\"dept\":\""
                                + (id <= 3 ? "ops" : id == 4 ? "dev" : "hr")
                                + "\"}";
                probe.send(
                        topic,
                        String.valueOf(id),
                        "{\"before\":null,\"after\":" + after + ",\"op\":\"c\"}",
                        Map.of());
            }
            await().atMost(Duration.ofSeconds(200))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(
                            () ->
                                    post("SELECT dept, n FROM " + DB + ".large_depts", 200)
                                            .then()
                                            .body(
                                                    "rows",
                                                    org.hamcrest.Matchers.equalTo(
                                                            List.of(List.of("ops", 3)))));

            // Every tick of the last table after its first: UPSTREAM, for a minute its upstream
            // refreshed first.
            JsonNode upstreamTick =
                    JSON.readTree(
                            probe.await(
                                            r ->
                                                    large.equals(r.key())
                                                            && r.value().contains("\"UPSTREAM\""),
                                            Duration.ofSeconds(90))
                                    .value());
            Instant minute = Instant.parse(upstreamTick.path("scheduledTime").asText());
            assertThat(minute.getEpochSecond() % 60).as("a minute boundary").isZero();
            assertThat(describe(perDept, "refresh.last_refresh")).isNotBlank();
        }
        for (String table : List.of("large_depts", "per_dept", "staff_ods")) {
            post("DROP MATERIALIZED TABLE " + DB + "." + table, 202);
        }
    }

    /**
     * A CONTINUOUS table's measured lag: under a trickle of changes and then quiet, it stays within
     * one checkpoint interval (half its freshness) plus the time to report it; DESCRIBE and
     * ddl-service's Prometheus gauge say the same; suspended, the lag grows past the freshness;
     * resumed, it comes back.
     */
    @Test
    void aRunningTablesLagStaysWithinAPeriodAndASuspendedOnesGrows() throws Exception {
        String topic = DB + "_visits";
        String table = "default_catalog." + DB + ".visits_by_page";
        Duration freshness = Duration.ofSeconds(5);
        Duration checkpointInterval = freshness.dividedBy(2);
        // A checkpoint is reported at most a poll (1 s) and a commit grace (1 s) after it
        // completed.
        Duration reportDelay = Duration.ofSeconds(4);
        post(
                "CREATE TABLE "
                        + DB
                        + ".visits (id BIGINT, page STRING) WITH ('connector' = 'kafka', 'topic' ="
                        + " '"
                        + topic
                        + "', 'format' = 'json',"
                        + " 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".visits_by_page FRESHNESS = INTERVAL '5' SECOND AS SELECT page, COUNT(*)"
                        + " AS n FROM "
                        + DB
                        + ".visits GROUP BY page",
                202);
        try (TopicProbe probe = new TopicProbe()) {
            probe.send(topic, "0", "{\"id\":0,\"page\":\"home\"}", Map.of());
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () ->
                                    assertThat(describe(table, "refresh.measured_lag"))
                                            .isNotEqualTo("null"));

            // 30 samples about a second apart (changes for the first 15, then quiet), each checked
            // after: the bound is generous, as how long a sample takes on a busy machine is not
            // what is tested.
            Duration bound = checkpointInterval.plus(reportDelay);
            List<Duration> lags = new ArrayList<>();
            await().atMost(Duration.ofSeconds(90))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(
                            () -> {
                                int second = lags.size() + 1;
                                if (second <= 15) {
                                    probe.send(
                                            topic,
                                            String.valueOf(second),
                                            "{\"id\":"
                                                    + second
                                                    + ",\"page\":\"p"
                                                    + second % 3
                                                    + "\"}",
                                            Map.of());
                                }
                                lags.add(Duration.parse(describe(table, "refresh.measured_lag")));
                                return lags.size() == 30;
                            });
            Duration worst = lags.stream().max(Comparator.naturalOrder()).orElseThrow();
            System.out.println(
                    "measured lag of a 5 s CONTINUOUS table (checkpoints every 2.5 s) over 30 s (15"
                            + " s of changes, 15 s quiet): max "
                            + worst.toMillis()
                            + " ms");
            assertThat(lags)
                    .as(
                            "each second's lag within a checkpoint interval and the time to report"
                                    + " it (%s)",
                            bound)
                    .allSatisfy(lag -> assertThat(lag).isLessThanOrEqualTo(bound));
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () -> {
                                double scraped = lagGauge(table);
                                double described =
                                        Duration.parse(describe(table, "refresh.measured_lag"))
                                                        .toMillis()
                                                / 1000.0;
                                assertThat(scraped)
                                        .as("mt_table_lag_seconds and DESCRIBE")
                                        .isCloseTo(described, Offset.offset(1.0));
                            });

            TopicProbe alerts = new TopicProbe().tail("mt.refresh.events");
            post("ALTER MATERIALIZED TABLE " + DB + ".visits_by_page SUSPEND", 202);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () -> {
                                assertThat(Duration.parse(describe(table, "refresh.measured_lag")))
                                        .isGreaterThan(freshness.plus(reportDelay));
                                assertThat(describe(table, "refresh.freshness_met"))
                                        .isEqualTo("false");
                            });
            Duration suspended = Duration.parse(describe(table, "refresh.measured_lag"));
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(
                            () ->
                                    assertThat(
                                                    Duration.parse(
                                                            describe(
                                                                    table, "refresh.measured_lag")))
                                            .as("a suspended table falls further behind")
                                            .isGreaterThan(suspended.plusSeconds(1)));

            JsonNode missed =
                    JSON.readTree(
                            alerts.await(
                                            r ->
                                                    table.equals(r.key())
                                                            && r.value().contains("\"behindSince\"")
                                                            && r.value().contains("\"detectedAt\""),
                                            Duration.ofSeconds(60))
                                    .value());
            assertThat(Duration.parse(missed.path("lag").asText()))
                    .isGreaterThan(freshness.plusSeconds(10));

            post("ALTER MATERIALIZED TABLE " + DB + ".visits_by_page RESUME", 202);
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () ->
                                    assertThat(
                                                    Duration.parse(
                                                            describe(
                                                                    table, "refresh.measured_lag")))
                                            .isLessThanOrEqualTo(bound));
            JsonNode restored =
                    JSON.readTree(
                            alerts.await(
                                            r ->
                                                    table.equals(r.key())
                                                            && r.value().contains("\"restoredAt\""),
                                            Duration.ofSeconds(30))
                                    .value());
            assertThat(restored.path("behindSince").asText())
                    .isEqualTo(missed.path("behindSince").asText());
            Assertions.assertThatThrownBy(
                            () ->
                                    alerts.await(
                                            r ->
                                                    table.equals(r.key())
                                                            && (r.value().contains("\"detectedAt\"")
                                                                    || r.value()
                                                                            .contains(
                                                                                    "\"restoredAt\"")),
                                            Duration.ofSeconds(5)))
                    .as("one FreshnessMissed and one FreshnessRestored for the episode")
                    .isInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("No matching record");
            alerts.close();
        }

        // The refresh history holds the episode, and still holds it after every service restarted.
        String history =
                "SELECT state, refresh_trigger, finished_at, snapshot_id FROM"
                        + " information_schema.refresh_history WHERE table_name = '"
                        + table
                        + "'";
        List<List<Object>> before = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () -> {
                            before.clear();
                            before.addAll(post(history, 200).jsonPath().getList("rows"));
                            assertThat(before)
                                    .extracting(row -> row.get(0))
                                    .contains(
                                            "SUCCEEDED",
                                            "NO_DATA",
                                            "SUSPENDED",
                                            "FRESHNESS_MISSED",
                                            "FRESHNESS_RESTORED");
                        });
        restartEveryService();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .untilAsserted(
                        () ->
                                assertThat(
                                                post(history, 200)
                                                        .jsonPath()
                                                        .<List<Object>>getList("rows"))
                                        .as("the history after a restart of every service")
                                        .containsAll(before));
        post("DROP MATERIALIZED TABLE " + DB + ".visits_by_page", 202);
    }

    /**
     * Stops every service, then starts each again: all at once, as the test's time is the
     * machine's.
     */
    private static void restartEveryService() {
        ServiceProcess.stopTogether(List.of(scheduler, jobManager, planner, ddl));
        startEveryService();
    }

    private static void startEveryService() {
        ddl = ddl();
        planner = planner();
        jobManager = jobManager();
        scheduler = scheduler();
        ServiceProcess.startTogether(List.of(ddl, planner, jobManager, scheduler));
    }

    /** ddl-service's mt_table_lag_seconds for {@code table}, scraped from /q/metrics. */
    private static double lagGauge(String table) throws Exception {
        String scrape =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(ddl.managementUri() + "/q/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
        var matcher =
                Pattern.compile(
                                "(?m)^mt_table_lag_seconds\\{table=\""
                                        + Pattern.quote(table)
                                        + "\"\\} (\\S+)$")
                        .matcher(scrape);
        assertThat(matcher.find()).as("mt_table_lag_seconds for " + table).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    private static void clicks(TopicProbe probe, String topic, int from, int to) {
        for (int i = from; i < to; i++) {
            probe.send(
                    topic,
                    String.valueOf(i),
                    "{\"id\":" + i + ",\"category\":\"" + "abc".charAt(i % 3) + "\"}",
                    Map.of());
        }
    }

    private static void awaitCounts(int each) {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () ->
                                post(
                                                "SELECT category, n FROM "
                                                        + DB
                                                        + ".by_category ORDER BY category",
                                                200)
                                        .then()
                                        .body(
                                                "rows",
                                                org.hamcrest.Matchers.equalTo(
                                                        List.of(
                                                                List.of("a", each),
                                                                List.of("b", each),
                                                                List.of("c", each)))));
    }

    private static String describe(String property) throws Exception {
        return describe("default_catalog." + DB + ".by_category", property);
    }

    private static String describe(String table, String property) throws Exception {
        JsonNode rows =
                JSON.readTree(post("DESCRIBE MATERIALIZED TABLE " + table, 200).asString())
                        .path("rows");
        for (JsonNode row : rows) {
            if (row.get(0).asText().equals(property)) {
                return row.get(1).asText();
            }
        }
        throw new AssertionError("no " + property + " in DESCRIBE: " + rows);
    }

    /** The ids of the table's jobs the cluster runs now. */
    private static List<String> runningJobs() throws Exception {
        HttpResponse<String> overview =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + FLINK_PORT
                                                                + "/jobs/overview"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        List<String> running = new ArrayList<>();
        for (JsonNode job : JSON.readTree(overview.body()).path("jobs")) {
            if (job.path("name").asText().startsWith("mt:default_catalog." + DB + ".by_category:")
                    && job.path("state").asText().equals("RUNNING")) {
                running.add(job.path("jid").asText());
            }
        }
        return running;
    }

    private static void killCluster() throws Exception {
        Path pidFile = DATA.resolve("flink/cluster.pid");
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                    .ifPresent(
                            process -> {
                                process.destroyForcibly();
                                process.onExit().join();
                            });
        }
    }

    private static void deleteRecursively(Path root) throws Exception {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static Response post(String statement, int status) {
        Response response =
                given().baseUri(ddl.baseUri())
                        .header("Authorization", TestCredentials.AUTHORIZATION)
                        .contentType(ContentType.JSON)
                        .body(Map.of("statement", statement))
                        .post("/api/v1/statements");
        response.then().statusCode(status);
        return response;
    }
}
