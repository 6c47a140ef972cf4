package io.mtables.refreshscheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.lifecycle.RefreshRequested;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Plans in, ticks out, through the real broker: boundaries, partitions, suspend, resume, drop,
 * manual refresh.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SchedulingIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ContractCodec codec = new ContractCodec();

    @Test
    void ticksFollowThePlanAndStopAtOnce() throws Exception {
        String table = "default_catalog.sched_it.t_" + UUID.randomUUID().toString().substring(0, 8);
        RefreshPlan plan =
                RefreshPlanBuilder.builder()
                        .table(table)
                        .definitionVersion(1)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.FULL)
                        .freshness(new RefreshPlan.Freshness(2, "SECOND"))
                        .freshnessDeclared(true)
                        .checkpointInterval(null)
                        .cron("0/2 * * * * ? *")
                        .partitionFormatters(Map.of("ss", "ss"))
                        .changelogMode("[I]")
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .reasons(List.of("test"))
                        .warnings(List.of())
                        .plannedAt(Instant.now())
                        .build();
        try (TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_TICKS)) {
            send(probe, Topics.REFRESH_PLANS, table, Contracts.REFRESH_PLANNED_V1, plan);

            JsonNode first = tick(probe, table, Duration.ofSeconds(90));
            assertThat(first.path("reason").asText())
                    .as("a new FULL table is filled at once")
                    .isEqualTo("CATCH_UP");
            JsonNode second = tick(probe, table, Duration.ofSeconds(10));
            JsonNode third = tick(probe, table, Duration.ofSeconds(10));
            assertThat(second.path("reason").asText()).isEqualTo("SCHEDULED");
            Instant secondAt = Instant.parse(second.path("scheduledTime").asText());
            assertThat(secondAt.getEpochSecond() % 2).as("on a 2-second boundary").isZero();
            assertThat(Instant.parse(third.path("scheduledTime").asText()))
                    .isEqualTo(secondAt.plusSeconds(2));
            assertThat(second.path("partition").path("ss").asText())
                    .as("the period that just ended")
                    .isEqualTo(
                            String.format(
                                    "%02d",
                                    secondAt.minusSeconds(2).atZone(ZoneOffset.UTC).getSecond()));
            assertThat(second.path("tickId").asText()).isEqualTo(table + "@" + secondAt);

            send(
                    probe,
                    Topics.REFRESH_PLANS,
                    table,
                    Contracts.REFRESH_PLANNED_V1,
                    withStatus(plan, 2, RefreshPlan.Status.SUSPENDED));
            drain(probe, table, Duration.ofSeconds(3));
            assertThatThrownBy(() -> tick(probe, table, Duration.ofSeconds(5)))
                    .as("no tick while suspended")
                    .isInstanceOf(AssertionError.class);

            send(
                    probe,
                    Topics.REFRESH_PLANS,
                    table,
                    Contracts.REFRESH_PLANNED_V1,
                    withStatus(plan, 3, RefreshPlan.Status.ACTIVE));
            JsonNode resumed = tick(probe, table, Duration.ofSeconds(60));
            assertThat(resumed.path("reason").asText()).isEqualTo("CATCH_UP");
            assertThat(resumed.path("planVersion").asLong()).isEqualTo(3);

            send(
                    probe,
                    Topics.REFRESH_PLANS,
                    table,
                    Contracts.REFRESH_PLANNED_V1,
                    withStatus(plan, 4, RefreshPlan.Status.DROPPED));
            drain(probe, table, Duration.ofSeconds(3));
            assertThatThrownBy(() -> tick(probe, table, Duration.ofSeconds(5)))
                    .as("no tick after the drop")
                    .isInstanceOf(AssertionError.class);

            String requestId = UUID.randomUUID().toString();
            send(
                    probe,
                    Topics.LIFECYCLE_COMMANDS,
                    table,
                    Contracts.REFRESH_REQUESTED_V1,
                    new RefreshRequested(table, 4, Map.of("ss", "07"), Instant.now(), requestId));
            JsonNode manual = tick(probe, table, Duration.ofSeconds(60));
            assertThat(manual.path("reason").asText()).isEqualTo("MANUAL");
            assertThat(manual.path("tickId").asText()).isEqualTo(requestId);
            assertThat(manual.path("partition").path("ss").asText()).isEqualTo("07");
        }
        String metrics =
                io.restassured.RestAssured.given()
                        .get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString();
        assertThat(metrics)
                .containsPattern("(?m)^mt_scheduler_ticks_total\\{reason=\"MANUAL\"\\} [1-9]")
                .containsPattern("(?m)^mt_scheduler_ticks_total\\{reason=\"SCHEDULED\"\\} [1-9]")
                .containsPattern("(?m)^mt_scheduler_tick_jitter_seconds_count [1-9]");
    }

    @Test
    void aChainOfThreeTicksInDependencyOrderAsTheUpstreamRefreshesEnd() throws Exception {
        String prefix =
                "default_catalog.sched_it.chain_"
                        + UUID.randomUUID().toString().substring(0, 8)
                        + "_";
        String a = prefix + "a";
        String b = prefix + "b";
        String c = prefix + "c";
        // A held tick waits until the next boundary at most: start early in a minute, so the steps
        // below have 20 s or more.
        Awaitility.await()
                .atMost(Duration.ofSeconds(25))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Instant.now().atZone(ZoneOffset.UTC).getSecond() <= 40);
        try (TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_TICKS)) {
            send(probe, Topics.REFRESH_PLANS, a, Contracts.REFRESH_PLANNED_V1, minutely(a));
            send(probe, Topics.REFRESH_PLANS, b, Contracts.REFRESH_PLANNED_V1, minutely(b, a));
            send(probe, Topics.REFRESH_PLANS, c, Contracts.REFRESH_PLANNED_V1, minutely(c, b));

            JsonNode first = tick(probe, a, Duration.ofSeconds(30));
            Instant boundary = Instant.parse(first.path("scheduledTime").asText());
            assertThatThrownBy(() -> tick(probe, b, Duration.ofSeconds(3)))
                    .as("B waits for A")
                    .isInstanceOf(AssertionError.class);

            send(
                    probe,
                    Topics.REFRESH_EVENTS,
                    a,
                    Contracts.REFRESH_SUCCEEDED_V1,
                    new RefreshSucceeded(
                            a,
                            1,
                            RefreshPlan.Mode.FULL,
                            Map.of(),
                            7,
                            10,
                            Instant.now(),
                            Instant.now(),
                            boundary,
                            "0123456789abcdef0123456789abcdef"));
            JsonNode afterA = tick(probe, b, Duration.ofSeconds(10));
            assertThat(afterA.path("reason").asText()).isEqualTo("UPSTREAM");
            assertThat(afterA.path("scheduledTime").asText())
                    .as("the root's boundary")
                    .isEqualTo(boundary.toString());
            assertThatThrownBy(() -> tick(probe, c, Duration.ofSeconds(2)))
                    .as("C waits for B")
                    .isInstanceOf(AssertionError.class);

            send(
                    probe,
                    Topics.REFRESH_EVENTS,
                    b,
                    Contracts.REFRESH_FAILED_V1,
                    new RefreshFailed(
                            b, 1, RefreshPlan.Mode.FULL, null, "boom", 1, Instant.now(), boundary));
            JsonNode afterB = tick(probe, c, Duration.ofSeconds(10));
            assertThat(afterB.path("reason").asText())
                    .as("a failed upstream refresh ends the wait too")
                    .isEqualTo("UPSTREAM");
            assertThat(afterB.path("scheduledTime").asText()).isEqualTo(boundary.toString());
        }
    }

    private static RefreshPlan minutely(String table, String... upstream) {
        return RefreshPlanBuilder.builder()
                .table(table)
                .definitionVersion(1)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.FULL)
                .freshness(new RefreshPlan.Freshness(1, "MINUTE"))
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .cron("0 0/1 * * * ? *")
                .partitionFormatters(Map.of())
                .changelogMode("[I]")
                .upsertKey(null)
                .upstreamTables(List.of(upstream))
                .reasons(List.of("test"))
                .warnings(List.of())
                .plannedAt(Instant.now())
                .build();
    }

    private <T> void send(
            TopicProbe probe, String topic, String key, Contract<T> contract, T payload) {
        probe.send(
                topic,
                key,
                codec.encode(contract, payload),
                Map.of(EventHeaders.TYPE, contract.type()));
    }

    private static JsonNode tick(TopicProbe probe, String table, Duration within) throws Exception {
        return JSON.readTree(probe.await(r -> table.equals(r.key()), within).value());
    }

    /**
     * Takes the ticks already on their way: returns once none has come for {@code quiet} (longer
     * than the 2-second period, so the scheduler has stopped ticking), however long a loaded
     * machine takes.
     */
    private static void drain(TopicProbe probe, String table, Duration quiet) {
        Instant giveUp = Instant.now().plusSeconds(120);
        while (Instant.now().isBefore(giveUp)) {
            try {
                probe.await(r -> table.equals(r.key()), quiet);
            } catch (AssertionError none) {
                return;
            }
        }
        throw new AssertionError("ticks of " + table + " kept coming for two minutes");
    }

    private static RefreshPlan withStatus(RefreshPlan p, long version, RefreshPlan.Status status) {
        return RefreshPlanBuilder.builder(p)
                .definitionVersion(version)
                .status(status)
                .mode(status == RefreshPlan.Status.DROPPED ? null : p.mode())
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .upsertKey(null)
                .warnings(List.of())
                .plannedAt(Instant.now())
                .incremental(null)
                .timeZone(null)
                .miniBatch(null)
                .build();
    }
}
