package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.cluster.ClusterStatus;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The web console (issue 51) in a real Chromium (Debian's, driven by playwright-core from npm,
 * which bin/lib/test-clients.sh installs): its script, src/test/resources/console/console_test.js,
 * does what a user would and fails on the first thing missing. Screenshots of each step are kept in
 * target/console-screenshots.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@TestProfile(ConsoleIT.WholeHistory.class)
class ConsoleIT {

    /** The tests' history keeps 3 rows a table (RefreshHistoryIT); the lag chart wants more. */
    public static class WholeHistory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mt.history.max-per-table", "200");
        }
    }

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = Path.of("src/test/resources/console/console_test.js");
    private static final Path SCREENSHOTS = Path.of("target/console-screenshots").toAbsolutePath();

    @TestHTTPResource("/console/")
    URL console;

    /** What the job manager says of a FULL refresh 30 s in, a quarter through its sources. */
    private static void sendRunningRefresh(String table) {
        String job = "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b";
        Instant started = Instant.now().minusSeconds(30);
        try (TopicProbe probe = new TopicProbe()) {
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.JOB_STARTED_V1,
                    table,
                    new JobStarted(
                            table,
                            1,
                            RefreshPlan.Mode.FULL,
                            job,
                            "mt:" + table + ":v1:refresh:r1",
                            null,
                            started));
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.REFRESH_PROGRESS_V1,
                    table,
                    new RefreshProgress(
                            table, 1, job, 1_200_000, 4_800_000L, started, Instant.now()));
        }
    }

    @Test
    void aUserCreatesATableFromTheEditorAndFollowsItsPlanLineageLagAndASuspendedReason()
            throws Exception {
        DialectIT.awaitReady();
        String db = "console_" + UUID.randomUUID().toString().substring(0, 8);
        String held = "default_catalog." + db + ".held";
        post("CREATE TABLE " + db + ".feed (id BIGINT) WITH ('connector' = 'datagen')", 202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + db
                        + ".held FRESHNESS = INTERVAL '1' MINUTE AS SELECT id FROM "
                        + db
                        + ".feed",
                202);
        StatementRequests.publishContinuousPlan(held);
        // What the job manager would have said of it: three refreshes 20, 40 and 90 s behind their
        // data (the last past its 1 minute), then suspended after failures.
        Instant now = Instant.now();
        try (TopicProbe probe = new TopicProbe()) {
            long[] lagSeconds = {20, 40, 90};
            for (int i = 0; i < lagSeconds.length; i++) {
                Instant finished = now.minusSeconds(300 - 60L * i);
                StatementRequests.sendRefreshEvent(
                        probe,
                        Contracts.REFRESH_SUCCEEDED_V1,
                        held,
                        new RefreshSucceeded(
                                held,
                                1,
                                RefreshPlan.Mode.FULL,
                                Map.of(),
                                i + 1,
                                10,
                                finished.minusSeconds(5),
                                finished,
                                finished.minusSeconds(lagSeconds[i]),
                                "job" + i,
                                null,
                                null,
                                null,
                                "SCHEDULED"));
            }
            StatementRequests.sendRefreshEvent(
                    probe,
                    Contracts.SUSPENDED_V1,
                    held,
                    new Suspended(
                            held,
                            1,
                            "5 failures in a row; the last: boom.",
                            null,
                            now,
                            Suspended.Cause.FAILURES));
        }
        String history =
                "SELECT state FROM information_schema.refresh_history WHERE table_name = '"
                        + held
                        + "'";
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () ->
                                assertThat(post(history, 200).jsonPath().getList("rows"))
                                        .as("the refreshes and the suspension in the history")
                                        .contains(List.of("SUSPENDED"))
                                        .filteredOn(row -> row.equals(List.of("SUCCEEDED")))
                                        .hasSize(3));

        io.restassured.RestAssured.given()
                .get(console)
                .then()
                .statusCode(200)
                .header(
                        "Content-Security-Policy",
                        org.hamcrest.Matchers.startsWith("default-src 'self'"))
                .header("X-Content-Type-Options", "nosniff");

        Path modules = ROOT.resolve(".run/clients/node_modules");
        assertThat(modules.resolve("playwright-core"))
                .as("playwright-core, installed by bin/lib/test-clients.sh (bin/test runs it)")
                .isDirectory();
        Files.createDirectories(SCREENSHOTS);
        // What the job manager would report of the cluster: held's job runs, and daily (made in
        // the editor by the script) waits for a slot.
        try (TopicProbe probe = new TopicProbe()) {
            StatementRequests.sendEvent(
                    probe,
                    Topics.CLUSTER_STATUS,
                    Contracts.CLUSTER_STATUS_V1,
                    ClusterStatus.KEY,
                    new ClusterStatus(
                            4,
                            1,
                            1,
                            1,
                            List.of("default_catalog." + db + ".daily"),
                            List.of(
                                    new ClusterStatus.Job(
                                            "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
                                            "mt:" + held + ":v1:q0",
                                            held,
                                            ClusterStatus.Kind.STREAMING,
                                            "RUNNING")),
                            "http://127.0.0.1:8085",
                            Instant.now()));
        }
        Process node =
                new ProcessBuilder(
                                "node",
                                SCRIPT.toAbsolutePath().toString(),
                                console.toString(),
                                TestCredentials.API_KEY,
                                SCREENSHOTS.toString(),
                                db,
                                modules.toString())
                        .redirectErrorStream(true)
                        .start();
        // A script that hangs is stopped, so that its output (and the failure) is read.
        var watchdog = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        watchdog.schedule(node::destroyForcibly, 120, TimeUnit.SECONDS);
        StringBuilder lines = new StringBuilder();
        try (BufferedReader out =
                        new BufferedReader(
                                new InputStreamReader(
                                        node.getInputStream(), StandardCharsets.UTF_8));
                Writer in =
                        new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.append(line).append('\n');
                if (line.equals("awaiting an event")) {
                    try (TopicProbe probe = new TopicProbe()) {
                        StatementRequests.sendRefreshEvent(
                                probe,
                                Contracts.JOB_STARTED_V1,
                                held,
                                new JobStarted(
                                        held,
                                        1,
                                        RefreshPlan.Mode.CONTINUOUS,
                                        "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a",
                                        "mt:" + held + ":v1:again",
                                        null,
                                        Instant.now()));
                        // Its job catching up: 100,000 records read in 10 s, 1,150,000 to go.
                        Instant reported = Instant.now();
                        for (long[] readAndBehind :
                                new long[][] {{3_400_000, 1_250_000}, {3_500_000, 1_150_000}}) {
                            StatementRequests.sendRefreshEvent(
                                    probe,
                                    Contracts.LOAD_PROGRESS_V1,
                                    held,
                                    new LoadProgress(
                                            held,
                                            1,
                                            "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a",
                                            readAndBehind[1],
                                            readAndBehind[0],
                                            false,
                                            readAndBehind[0] == 3_400_000
                                                    ? reported.minusSeconds(10)
                                                    : reported));
                        }
                    }
                    in.write("sent\n");
                    in.flush();
                }
                if (line.equals("awaiting a refresh")) {
                    sendRunningRefresh("default_catalog." + db + ".daily");
                    in.write("sent\n");
                    in.flush();
                }
            }
        }
        watchdog.shutdownNow();
        String output = lines.toString();
        assertThat(node.waitFor(120, TimeUnit.SECONDS)).as("the browser's script ended").isTrue();
        System.out.println(output);
        assertThat(output.lines().toList()).as(output).contains("done");
        assertThat(node.exitValue()).isZero();
        assertThat(SCREENSHOTS.resolve("7-cluster.png")).isNotEmptyFile();
    }
}
