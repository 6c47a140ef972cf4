package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * A table's measured lag, from the job manager's events: in DESCRIBE, information_schema and the
 * Prometheus gauges, counted from the root source through a chain.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class FreshnessIT {

    private static final String DB = "fresh_" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aChainsLagCountsFromItsRootAndIsTheSameInDescribeInformationSchemaAndMetrics() {
        DialectIT.awaitReady();
        String up = "default_catalog." + DB + ".up";
        String down = "default_catalog." + DB + ".down";
        post(
                "CREATE TABLE " + DB + ".src (id BIGINT, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".up FRESHNESS = INTERVAL '5' SECOND AS SELECT id, v FROM "
                        + DB
                        + ".src",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".down FRESHNESS = INTERVAL '1' MINUTE AS SELECT id FROM "
                        + DB
                        + ".up",
                202);
        assertThat(property(down, "refresh.measured_lag"))
                .as("not refreshed yet: not measured")
                .isNull();

        Instant now = Instant.now();
        Instant upData = now.minusSeconds(40);
        try (TopicProbe alerts = new TopicProbe().tail(Topics.REFRESH_EVENTS)) {
            try (TopicProbe probe = new TopicProbe()) {
                succeeded(
                        probe,
                        new RefreshSucceeded(
                                up,
                                1,
                                RefreshPlan.Mode.CONTINUOUS,
                                Map.of(),
                                3,
                                10,
                                now,
                                now,
                                upData,
                                "job-up"));
                succeeded(
                        probe,
                        new RefreshSucceeded(
                                down,
                                1,
                                RefreshPlan.Mode.CONTINUOUS,
                                Map.of(),
                                2,
                                10,
                                now,
                                now,
                                now.minusSeconds(10),
                                "job-down"));
                // A refresh of one named partition says nothing about the rest of the table.
                succeeded(
                        probe,
                        new RefreshSucceeded(
                                down,
                                1,
                                RefreshPlan.Mode.FULL,
                                Map.of("ds", "2026-12-01"),
                                4,
                                1,
                                now,
                                now,
                                now,
                                "job-down"));
            }

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    assertThat(property(down, "refresh.last_snapshot_id"))
                                            .isEqualTo("4"));
            assertThat(property(down, "refresh.data_timestamp"))
                    .as("no fresher than the table it reads")
                    .isEqualTo(upData.toString());
            assertThat(Duration.parse(property(down, "refresh.measured_lag")))
                    .isBetween(Duration.ofSeconds(40), Duration.ofSeconds(50));
            assertThat(property(down, "refresh.freshness_met")).isEqualTo("true");
            assertThat(property(up, "refresh.freshness_met"))
                    .as("40 s behind a 5 s promise")
                    .isEqualTo("false");

            List<?> row =
                    post(
                                                    "SELECT measured_lag, data_timestamp FROM"
                                                        + " information_schema.materialized_tables"
                                                        + " WHERE table_name = '"
                                                            + down
                                                            + "'",
                                                    200)
                                            .jsonPath()
                                            .getList("rows")
                                            .get(0)
                                    instanceof List<?> list
                            ? list
                            : List.of();
            long lagMillis = ((Number) row.get(0)).longValue();
            assertThat(lagMillis).isBetween(40_000L, 50_000L);
            assertThat(row.get(1)).isEqualTo(upData.truncatedTo(ChronoUnit.MILLIS).toString());

            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () -> {
                                String metrics = StatementRequests.metrics();
                                double scraped = gauge(metrics, "mt_table_lag_seconds", down);
                                double measured =
                                        Duration.parse(property(down, "refresh.measured_lag"))
                                                        .toMillis()
                                                / 1000.0;
                                assertThat(scraped)
                                        .as("the gauge and DESCRIBE measure the same lag")
                                        .isCloseTo(measured, Offset.offset(1.0));
                                assertThat(gauge(metrics, "mt_table_freshness_target_seconds", up))
                                        .isEqualTo(5.0);
                                assertThat(gauge(metrics, "mt_table_data_timestamp_seconds", down))
                                        .isCloseTo(
                                                upData.toEpochMilli() / 1000.0,
                                                Offset.offset(0.01));
                                assertThat(metrics)
                                        .containsPattern(
                                                "mt_statements_total\\{[^}]*status=\"SUCCEEDED\"[^}]*\\}"
                                                    + " [1-9]");
                            });

            // up is 40 s behind a 5 s freshness: once the grace (5 s in tests) has passed since
            // this service started watching, one FreshnessMissed; a fresh commit closes the
            // episode.
            var missed =
                    alerts.await(
                            r ->
                                    up.equals(r.key())
                                            && Contracts.FRESHNESS_MISSED_V1
                                                    .type()
                                                    .equals(
                                                            TopicProbe.header(
                                                                    r, EventHeaders.TYPE)),
                            Duration.ofSeconds(60));
            assertThat(missed.value()).contains("\"freshness\":\"PT5S\"");
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () -> {
                                String metrics = StatementRequests.metrics();
                                assertThat(gauge(metrics, "mt_freshness_misses_total", up))
                                        .as("one miss counted, with its event")
                                        .isEqualTo(1.0);
                                assertThat(gauge(metrics, "mt_table_suspended", up)).isZero();
                                assertThat(metrics)
                                        .as("the service is ready, and says so to Prometheus")
                                        .containsPattern("(?m)^mt_service_ready 1\\.0$");
                            });
            succeeded(
                    alerts,
                    new RefreshSucceeded(
                            up,
                            1,
                            RefreshPlan.Mode.CONTINUOUS,
                            Map.of(),
                            5,
                            1,
                            Instant.now(),
                            Instant.now(),
                            Instant.now(),
                            "job-up"));
            alerts.await(
                    r ->
                            up.equals(r.key())
                                    && Contracts.FRESHNESS_RESTORED_V1
                                            .type()
                                            .equals(TopicProbe.header(r, EventHeaders.TYPE)),
                    Duration.ofSeconds(30));
            Assertions.assertThatThrownBy(
                            () ->
                                    alerts.await(
                                            r ->
                                                    up.equals(r.key())
                                                            && String.valueOf(
                                                                            TopicProbe.header(
                                                                                    r,
                                                                                    EventHeaders
                                                                                            .TYPE))
                                                                    .startsWith("Freshness"),
                                            Duration.ofSeconds(4)))
                    .as("one of each per episode")
                    .isInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("No matching record");
        }
    }

    private static double gauge(String scrape, String name, String table) {
        Matcher matcher =
                Pattern.compile(
                                "(?m)^"
                                        + name
                                        + "\\{[^}]*table=\""
                                        + Pattern.quote(table)
                                        + "\"[^}]*\\} (\\S+)$")
                        .matcher(scrape);
        assertThat(matcher.find())
                .as(
                        name
                                + " for "
                                + table
                                + " in\n"
                                + scrape.lines().filter(l -> l.startsWith("mt_")).toList())
                .isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    private static void succeeded(TopicProbe probe, RefreshSucceeded event) {
        probe.send(
                Topics.REFRESH_EVENTS,
                event.table(),
                new ContractCodec().encode(Contracts.REFRESH_SUCCEEDED_V1, event),
                Map.of(EventHeaders.TYPE, Contracts.REFRESH_SUCCEEDED_V1.type()));
    }

    private static String property(String table, String name) {
        List<List<String>> rows =
                post("DESCRIBE MATERIALIZED TABLE " + table, 200).jsonPath().getList("rows");
        for (List<String> row : rows) {
            if (row.get(0).equals(name)) {
                return row.get(1);
            }
        }
        throw new AssertionError(name + " not in DESCRIBE of " + table);
    }

    /**
     * At its start the service did {@link io.mtables.planning.WarmUp}'s work once (Flink's front
     * end converted its statement and the planner planned it), and it did not fail.
     */
    @Test
    void flinksFrontEndAndPlannerAreWarmedUpOnceAtStart() {
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .untilAsserted(
                        () ->
                                assertThat(StatementRequests.metrics())
                                        .containsPattern(
                                                "(?m)^mt_warm_up_seconds_count\\{part=\"sql front"
                                                        + " end\",?\\} 1\\.0$")
                                        .containsPattern(
                                                "(?m)^mt_warm_up_seconds_count\\{part=\"planner\",?\\}"
                                                    + " 1\\.0$")
                                        .doesNotContain("mt_warm_up_failures_total"));
    }
}
