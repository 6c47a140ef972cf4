package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.testing.kafka.TopicProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two refresh-scheduler-service replicas over the real broker: no tick fired twice; killing one
 * (SIGKILL) moves its tables to the other with no boundary missed; killing the last one and
 * starting it again after several missed periods gives each table exactly one catch-up.
 */
class SchedulerFailoverIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TABLES = 12;

    /**
     * A period twice the scheduler's Kafka session timeout (10 s): a killed replica's tables are
     * taken over (timeout, heartbeat, rebalance: 11-15 s) before the second boundary after the
     * kill, which the test awaits. 30 s took the test 146 s, mostly waiting.
     */
    private static final int PERIOD_SECONDS = 20;

    @Test
    void replicasNeverDoubleATickAndAKilledReplicasTablesMissNoBoundary() throws Exception {
        String prefix =
                "default_catalog.sys_sched_" + UUID.randomUUID().toString().substring(0, 6) + ".t";
        List<String> tables = new ArrayList<>();
        for (int i = 0; i < TABLES; i++) {
            tables.add(prefix + i);
        }
        ServiceProcess first =
                new ServiceProcess(
                                "refresh-scheduler-service",
                                18083,
                                "mt.scheduler.catch-up-window=3s")
                        .start();
        ServiceProcess second =
                new ServiceProcess(
                                "refresh-scheduler-service",
                                18183,
                                "mt.scheduler.catch-up-window=3s")
                        .start();
        List<JsonNode> ticks = new ArrayList<>();
        try (TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_TICKS)) {
            ContractCodec codec = new ContractCodec();
            for (String table : tables) {
                RefreshPlan plan =
                        RefreshPlanBuilder.builder()
                                .table(table)
                                .definitionVersion(1)
                                .status(RefreshPlan.Status.ACTIVE)
                                .mode(RefreshPlan.Mode.FULL)
                                .freshness(new RefreshPlan.Freshness(PERIOD_SECONDS, "SECOND"))
                                .freshnessDeclared(true)
                                .checkpointInterval(null)
                                .cron("0/" + PERIOD_SECONDS + " * * * * ? *")
                                .partitionFormatters(Map.of())
                                .changelogMode("[I]")
                                .upsertKey(null)
                                .upstreamTables(List.of())
                                .reasons(List.of("test"))
                                .warnings(List.of())
                                .plannedAt(Instant.now())
                                .build();
                probe.send(
                        Topics.REFRESH_PLANS,
                        table,
                        codec.encode(Contracts.REFRESH_PLANNED_V1, plan),
                        Map.of(EventHeaders.TYPE, Contracts.REFRESH_PLANNED_V1.type()));
            }
            // Both replicas schedule: every table has ticked once.
            collectUntil(
                    probe,
                    prefix,
                    ticks,
                    () -> tables.stream().allMatch(t -> !boundaries(ticks, t, null).isEmpty()),
                    Duration.ofSeconds(120));
            Instant killedAt = Instant.now();
            first.kill();
            // The boundary after the next one: by then the survivor has caught up every table it
            // took over.
            Instant lastBoundary = nextBoundary(killedAt).plusSeconds(PERIOD_SECONDS);
            collectUntil(
                    probe,
                    prefix,
                    ticks,
                    () ->
                            tables.stream()
                                    .allMatch(
                                            t -> boundaries(ticks, t, null).contains(lastBoundary)),
                    Duration.ofSeconds(180));

            assertThat(ticks.stream().map(t -> t.path("tickId").asText()).toList())
                    .as("no tick twice")
                    .doesNotHaveDuplicates();
            for (String table : tables) {
                Set<Instant> boundaries = boundaries(ticks, table, null);
                for (Instant boundary = nextBoundary(killedAt.minusSeconds(PERIOD_SECONDS));
                        !boundary.isAfter(lastBoundary);
                        boundary = boundary.plusSeconds(PERIOD_SECONDS)) {
                    assertThat(boundaries)
                            .as(table + ": boundary " + boundary + " ticked, across the kill")
                            .contains(boundary);
                }
            }

            second.kill();
            // Downtime is the point here: two whole periods pass with no scheduler running.
            Thread.sleep(Duration.ofSeconds(PERIOD_SECONDS * 2 + 5).toMillis());
            List<JsonNode> afterRestart = new ArrayList<>();
            second =
                    new ServiceProcess(
                                    "refresh-scheduler-service",
                                    18183,
                                    "mt.scheduler.catch-up-window=3s")
                            .start();
            collectUntil(
                    probe,
                    prefix,
                    afterRestart,
                    () ->
                            tables.stream()
                                    .allMatch(
                                            t ->
                                                    !boundaries(afterRestart, t, "CATCH_UP")
                                                            .isEmpty()),
                    Duration.ofSeconds(120));
            // A second catch-up would come within the catch-up window (3 s): look that long and
            // more for one.
            collectUntil(probe, prefix, afterRestart, () -> false, Duration.ofSeconds(8));
            Map<String, Integer> catchUps = new HashMap<>();
            afterRestart.stream()
                    .filter(t -> t.path("reason").asText().equals("CATCH_UP"))
                    .forEach(t -> catchUps.merge(t.path("table").asText(), 1, Integer::sum));
            for (String table : tables) {
                assertThat(catchUps.get(table))
                        .as(table + ": one catch-up after two missed periods")
                        .isEqualTo(1);
            }
        } finally {
            first.stop();
            second.stop();
        }
    }

    private static Instant nextBoundary(Instant after) {
        long seconds = after.getEpochSecond();
        return Instant.ofEpochSecond(
                seconds - Math.floorMod(seconds, PERIOD_SECONDS) + PERIOD_SECONDS);
    }

    /** The scheduled times of a table's ticks, of one reason or (null) all. */
    private static Set<Instant> boundaries(List<JsonNode> ticks, String table, String reason) {
        Set<Instant> boundaries = new HashSet<>();
        ticks.stream()
                .filter(
                        t ->
                                t.path("table").asText().equals(table)
                                        && (reason == null
                                                || reason.equals(t.path("reason").asText())))
                .forEach(t -> boundaries.add(Instant.parse(t.path("scheduledTime").asText())));
        return boundaries;
    }

    /**
     * Collects ticks until {@code done} holds (then returns) or {@code atMost} has passed (then
     * returns too, if {@code done} never can).
     */
    private static void collectUntil(
            TopicProbe probe,
            String prefix,
            List<JsonNode> into,
            BooleanSupplier done,
            Duration atMost)
            throws Exception {
        Instant end = Instant.now().plus(atMost);
        while (!done.getAsBoolean() && Instant.now().isBefore(end)) {
            try {
                into.add(
                        JSON.readTree(
                                probe.await(
                                                r -> r.key() != null && r.key().startsWith(prefix),
                                                Duration.ofMillis(500))
                                        .value()));
            } catch (AssertionError none) {
                // nothing yet
            }
        }
    }
}
