package io.mtables.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Task slots as a first-class state, on a real session cluster (a JobManager and TaskManagers as
 * separate processes): a table whose streaming job finds no free slot waits QUEUED instead of
 * failing, a FULL refresh still finds the slot kept for refreshes, and a TaskManager that joins
 * lets the queued table start.
 */
@QuarkusTest
@TestProfile(CapacityOnSessionClusterIT.SessionCluster.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(EmbeddedFlinkTestResource.class)
class CapacityOnSessionClusterIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    /** Restricts the session cluster to this test class. */
    public static class SessionCluster implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SessionClusterTestResource.class));
        }
    }

    @Inject Locations locations;

    private final String db =
            EmbeddedFlinkTestResource.runPrefix + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aTableWithoutASlotIsQueuedARefreshStillRunsAndASecondTaskManagerLetsTheTableStart()
            throws Exception {
        try (BrokerDriver driver = new BrokerDriver();
                TopicProbe clusterStatus = new TopicProbe().fromStart(Topics.CLUSTER_STATUS)) {
            String topic = db + "_users";
            var users =
                    Tables.kafkaSource(
                            "default_catalog." + db + ".users",
                            "`id` BIGINT NOT NULL, `name` STRING, PRIMARY KEY (`id`) NOT ENFORCED",
                            topic,
                            "debezium-json",
                            KafkaBroker.bootstrapServers());
            driver.change(topic, "1", null, "{\"id\":1,\"name\":\"ann\"}", "c");
            driver.change(topic, "2", null, "{\"id\":2,\"name\":\"bob\"}", "c");

            // One TaskManager of 2 slots, 1 kept for FULL refreshes: room for one streaming job.
            String first = "default_catalog." + db + ".first";
            TableDefinition firstDefinition = copyOfUsers(first, users);
            driver.publish(
                    firstDefinition,
                    Tables.continuous(first, 1, List.of("id"), Duration.ofSeconds(1)));
            driver.event(Contracts.JOB_STARTED_V1, first, PATIENCE);
            awaitRows(first);

            String second = "default_catalog." + db + ".second";
            driver.publish(
                    copyOfUsers(second, users),
                    Tables.continuous(second, 1, List.of("id"), Duration.ofSeconds(1)));
            JsonNode queued = driver.event(Contracts.JOB_QUEUED_V1, second, PATIENCE);
            assertThat(queued.path("slotsNeeded").asInt()).isEqualTo(1);
            assertThat(queued.path("slotsTotal").asInt())
                    .isEqualTo(SessionClusterTestResource.FIRST_SLOTS);
            assertThat(queued.path("slotsReserved").asInt()).isEqualTo(1);
            assertThat(queued.path("slotsFree").asInt()).isZero();
            assertThat(queued.path("reason").asText())
                    .isEqualTo(
                            "needs 1 task slot; the cluster has 2 in 1 TaskManager, 0 free for"
                                    + " streaming jobs (1 kept for FULL refreshes); it starts when"
                                    + " slots free up: suspend or drop another table, or add a"
                                    + " TaskManager");
            awaitQueuedTablesMetric(1);
            // The cluster's report says the same: the slots, the queue, the job that holds the
            // slot, and where Flink's UI is.
            JsonNode status =
                    clusterStatus(
                            clusterStatus,
                            s -> s.path("queuedTables").toString().equals("[\"" + second + "\"]"));
            assertThat(status.path("slotsTotal").asInt())
                    .isEqualTo(SessionClusterTestResource.FIRST_SLOTS);
            assertThat(status.path("slotsReserved").asInt()).isEqualTo(1);
            assertThat(status.path("taskManagers").asInt()).isEqualTo(1);
            assertThat(status.path("flinkWebUrl").asText()).startsWith("http://");
            assertThat(status.path("jobs").findValuesAsText("table")).containsOnlyOnce(first);
            JsonNode firstJob = status.path("jobs").get(0);
            assertThat(firstJob.path("kind").asText()).isEqualTo("STREAMING");
            assertThat(firstJob.path("jobId").asText()).matches("[0-9a-f]{32}");

            // The slot kept free serves a FULL refresh (over the first table) while the streaming
            // job waits.
            String full = "default_catalog." + db + ".counted";
            TableDefinition counted =
                    Tables.materialized(
                            full,
                            1,
                            List.of(new Column("n", "BIGINT", false)),
                            List.of(),
                            "SELECT COUNT(*) AS `n` FROM `default_catalog`.`"
                                    + db
                                    + "`.`first` AS `first`",
                            List.of(Tables.materializedSource(firstDefinition)),
                            TableDefinition.Status.ACTIVE);
            driver.publish(counted, Tables.full(full, 1));
            driver.refresh(full, Map.of());
            JsonNode refreshed = driver.event(Contracts.REFRESH_SUCCEEDED_V1, full, PATIENCE);
            assertThat(refreshed.path("mode").asText()).isEqualTo("FULL");
            assertThat(PaimonRows.read(locations.warehouse(), full)).containsExactly("2");
            assertThatThrownBy(
                            () ->
                                    driver.probe()
                                            .await(
                                                    r ->
                                                            second.equals(r.key())
                                                                    && Contracts.JOB_STARTED_V1
                                                                            .type()
                                                                            .equals(
                                                                                    TopicProbe
                                                                                            .header(
                                                                                                    r,
                                                                                                    EventHeaders
                                                                                                            .TYPE)),
                                                    Duration.ofSeconds(2)))
                    .as("still queued")
                    .isInstanceOf(AssertionError.class);

            Process secondTaskManager =
                    SessionClusterTestResource.startTaskManager("taskmanager-2", 2);
            try {
                SessionClusterTestResource.awaitTaskManagers(2);
                JsonNode started = driver.event(Contracts.JOB_STARTED_V1, second, PATIENCE);
                assertThat(started.path("mode").asText()).isEqualTo("CONTINUOUS");
                awaitRows(second);
                awaitQueuedTablesMetric(0);
                JsonNode both =
                        clusterStatus(
                                clusterStatus,
                                s ->
                                        s.path("taskManagers").asInt() == 2
                                                && s.path("queuedTables").isEmpty()
                                                && s.path("jobs")
                                                        .findValuesAsText("table")
                                                        .contains(second));
                assertThat(both.path("slotsTotal").asInt())
                        .isEqualTo(SessionClusterTestResource.FIRST_SLOTS + 2);
            } finally {
                SessionClusterTestResource.kill(secondTaskManager);
            }
        }
    }

    /** The first ClusterStatus not read before that matches. */
    private static JsonNode clusterStatus(
            TopicProbe probe, java.util.function.Predicate<JsonNode> match) {
        return BrokerDriver.readTree(
                probe.await(
                                r ->
                                        Contracts.CLUSTER_STATUS_V1
                                                        .type()
                                                        .equals(
                                                                TopicProbe.header(
                                                                        r, EventHeaders.TYPE))
                                                && match.test(BrokerDriver.readTree(r.value())),
                                PATIENCE)
                        .value());
    }

    private static TableDefinition copyOfUsers(String table, TableDefinition.SourceTable users) {
        String db = table.split("\\.")[1];
        return Tables.materialized(
                table,
                1,
                List.of(new Column("id", "BIGINT", false), new Column("name", "STRING", true)),
                List.of(),
                "SELECT `users`.`id`, `users`.`name` FROM `default_catalog`.`"
                        + db
                        + "`.`users` AS `users`",
                List.of(users),
                TableDefinition.Status.ACTIVE);
    }

    private void awaitRows(String table) {
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(
                        () ->
                                assertThat(PaimonRows.read(locations.warehouse(), table))
                                        .containsExactly("1|ann", "2|bob"));
    }

    private static void awaitQueuedTablesMetric(int queued) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () ->
                                assertThat(
                                                io.restassured.RestAssured.given()
                                                        .get("/q/metrics")
                                                        .then()
                                                        .statusCode(200)
                                                        .extract()
                                                        .asString())
                                        .containsPattern(
                                                "(?m)^mt_tables_queued " + queued + "\\.0$")
                                        // One TaskManager of 2 slots, then two.
                                        .containsPattern("(?m)^mt_cluster_slots_total [24]\\.0$")
                                        .containsPattern("(?m)^mt_cluster_slots_free \\d+\\.0$")
                                        .containsPattern("(?m)^mt_cluster_task_managers [12]\\.0$")
                                        .containsPattern("(?m)^mt_service_ready 1\\.0$"));
    }
}
