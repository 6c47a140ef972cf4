package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.cluster.ClusterStatus;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/cluster}: the job manager's latest report of the cluster as each caller may
 * see it, every slot counted, only the tables the caller may see named, each job linked to Flink's
 * web UI.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class ClusterIT {

    @Test
    void theLatestReportNamesOnlyTheTablesTheCallerMaySee() {
        DialectIT.awaitReady();
        String db = "cluster_" + UUID.randomUUID().toString().substring(0, 8);
        StatementRequests.sourceAndTablesOverIt(db, "shared", "hidden", "waiting");
        post("GRANT SELECT ON TABLE " + db + ".shared TO USER 'eve'", 202);
        String shared = "default_catalog." + db + ".shared";
        String hidden = "default_catalog." + db + ".hidden";
        String waiting = "default_catalog." + db + ".waiting";
        ClusterStatus status =
                new ClusterStatus(
                        8,
                        1,
                        1,
                        2,
                        List.of(waiting),
                        List.of(
                                new ClusterStatus.Job(
                                        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                                        "mt:" + hidden + ":v1:q0",
                                        hidden,
                                        ClusterStatus.Kind.STREAMING,
                                        "RUNNING"),
                                new ClusterStatus.Job(
                                        "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
                                        "mt:" + shared + ":v1:refresh:r1",
                                        shared,
                                        ClusterStatus.Kind.REFRESH,
                                        "INITIALIZING")),
                        "http://flink.example.test:8085/",
                        Instant.now());
        try (TopicProbe probe = new TopicProbe()) {
            StatementRequests.sendEvent(
                    probe,
                    Topics.CLUSTER_STATUS,
                    Contracts.CLUSTER_STATUS_V1,
                    ClusterStatus.KEY,
                    status);
        }

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () ->
                                assertThat(
                                                cluster(TestCredentials.AUTHORIZATION, 200)
                                                        .getList("jobs.table"))
                                        .containsExactly(hidden, shared));
        JsonPath admin = cluster(TestCredentials.AUTHORIZATION, 200);
        assertThat(admin.getInt("slotsTotal")).isEqualTo(8);
        assertThat(admin.getInt("slotsUsed")).isEqualTo(7);
        assertThat(admin.getInt("slotsFree")).isEqualTo(1);
        assertThat(admin.getInt("slotsReserved")).isEqualTo(1);
        assertThat(admin.getInt("taskManagers")).isEqualTo(2);
        assertThat(admin.getList("queuedTables")).containsExactly(waiting);
        assertThat(admin.getInt("otherJobs")).isZero();
        assertThat(admin.getString("jobs[0].flinkUrl"))
                .isEqualTo(
                        "http://flink.example.test:8085/#/job/running/"
                                + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/overview");
        assertThat(admin.getString("jobs[1].kind")).isEqualTo("REFRESH");
        assertThat(admin.getString("observedAt")).isEqualTo(status.observedAt().toString());

        JsonPath eve = cluster("Bearer " + StatementRequests.jwt("eve"), 200);
        assertThat(eve.getList("jobs.table")).as("only what eve may see").containsExactly(shared);
        assertThat(eve.getInt("otherJobs")).isEqualTo(1);
        assertThat(eve.getList("queuedTables")).isEmpty();
        assertThat(eve.getInt("otherQueuedTables")).isEqualTo(1);
        assertThat(eve.getInt("slotsTotal")).as("slots are not a table's secret").isEqualTo(8);
        assertThat(eve.prettify()).doesNotContain(hidden, waiting);

        given().get("/api/v1/cluster").then().statusCode(401);
    }

    private static JsonPath cluster(String authorization, int status) {
        return given().header("Authorization", authorization)
                .get("/api/v1/cluster")
                .then()
                .statusCode(status)
                .extract()
                .jsonPath();
    }
}
