package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.ddl.history.RefreshHistoryTable;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The job manager's events become rows of information_schema.refresh_history, kept in a Paimon
 * table of the warehouse (so a restarted service, or any Paimon reader, sees them), within the
 * per-table bound (3 in tests).
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class RefreshHistoryIT {

    private static final String DB = "hist_" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void everyRefreshOutcomeIsARowAndEachTableKeepsItsNewest() {
        DialectIT.awaitReady();
        String table = "default_catalog." + DB + ".daily";
        post(
                "CREATE TABLE " + DB + ".src (id BIGINT, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".daily FRESHNESS = INTERVAL '1' MINUTE AS SELECT id, v FROM "
                        + DB
                        + ".src",
                202);
        // Tomorrow's hours: the data is never behind the 1 minute freshness, so no FreshnessMissed
        // joins the history (fixed times made this test fail once the wall clock passed them).
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(1));
        try (TopicProbe probe = new TopicProbe()) {
            for (int i = 0; i < 3; i++) {
                Instant scheduled = hour.plus(Duration.ofHours(i));
                send(
                        probe,
                        Contracts.REFRESH_SUCCEEDED_V1,
                        new RefreshSucceeded(
                                table,
                                1,
                                RefreshPlan.Mode.FULL,
                                Map.of(),
                                10 + i,
                                5,
                                scheduled.plusSeconds(1),
                                scheduled.plusSeconds(3),
                                scheduled,
                                "job" + i,
                                null,
                                null,
                                null,
                                "SCHEDULED"));
            }
            Instant failed = hour.plus(Duration.ofHours(3));
            send(
                    probe,
                    Contracts.REFRESH_FAILED_V1,
                    new RefreshFailed(
                            table,
                            1,
                            RefreshPlan.Mode.FULL,
                            "job3",
                            "division by zero",
                            1,
                            failed.plusSeconds(2),
                            failed,
                            "SCHEDULED"));
            Instant manual = hour.plus(Duration.ofHours(3)).plusSeconds(600);
            send(
                    probe,
                    Contracts.REFRESH_SUCCEEDED_V1,
                    new RefreshSucceeded(
                            table,
                            1,
                            RefreshPlan.Mode.FULL,
                            Map.of(),
                            13,
                            0,
                            manual,
                            manual.plusSeconds(1),
                            manual,
                            null,
                            RefreshSucceeded.Outcome.NO_DATA,
                            Map.of(),
                            null,
                            "MANUAL"));
        }

        String query =
                "SELECT state, refresh_trigger, scheduled_time, snapshot_id, freshness_met FROM"
                        + " information_schema.refresh_history WHERE table_name = '"
                        + table
                        + "' ORDER BY finished_at";
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () ->
                                assertThat(post(query, 200).jsonPath().getList("rows"))
                                        .as("the newest 3 of 5")
                                        .containsExactly(
                                                List.of(
                                                        "SUCCEEDED",
                                                        "SCHEDULED",
                                                        hour.plus(Duration.ofHours(2)).toString(),
                                                        12,
                                                        true),
                                                Arrays.asList(
                                                        "FAILED",
                                                        "SCHEDULED",
                                                        hour.plus(Duration.ofHours(3)).toString(),
                                                        null,
                                                        null),
                                                Arrays.asList(
                                                        "NO_DATA",
                                                        "MANUAL",
                                                        hour.plus(Duration.ofHours(3))
                                                                .plusSeconds(600)
                                                                .toString(),
                                                        13,
                                                        true)));
        assertThat(
                        post(
                                        "SELECT state_message FROM"
                                            + " information_schema.refresh_history WHERE table_name"
                                            + " = '"
                                                + table
                                                + "' AND state = 'FAILED'",
                                        200)
                                .jsonPath()
                                .getList("rows"))
                .containsExactly(List.of("division by zero (1 in a row)"));

        // What a restarted service reads: the rows are in the warehouse, not in this process.
        var warehouse =
                Warehouse.at(
                        Path.of("target/mt-data/warehouse")
                                .toAbsolutePath()
                                .normalize()
                                .toUri()
                                .toString());
        assertThat(RefreshHistoryTable.read(warehouse, Optional.of(table))).hasSize(3);
    }

    private static <T> void send(TopicProbe probe, Contract<T> contract, T event) {
        String table =
                event instanceof RefreshSucceeded s ? s.table() : ((RefreshFailed) event).table();
        probe.send(
                Topics.REFRESH_EVENTS,
                table,
                new ContractCodec().encode(contract, event),
                Map.of(EventHeaders.TYPE, contract.type()));
    }
}
