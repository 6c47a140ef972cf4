package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** A plan published on mt.refresh.plans shows in DESCRIBE and information_schema. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PlanInDescribeIT {

    private static final String DB = "plan_" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void describeShowsThePlanOfTheCurrentVersionWithItsReasons() {
        DialectIT.awaitReady();
        String table = "default_catalog." + DB + ".mt";
        post(
                "CREATE TABLE "
                        + DB
                        + ".src (id BIGINT NOT NULL, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".mt FRESHNESS = INTERVAL '5' MINUTE AS SELECT id, v FROM "
                        + DB
                        + ".src",
                202);
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".mt", 200)
                .then()
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "plan",
                                        "not yet planned for version 1 (planner-service)")));

        RefreshPlan plan =
                RefreshPlanBuilder.builder()
                        .table(table)
                        .definitionVersion(1)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.CONTINUOUS)
                        .freshness(new RefreshPlan.Freshness(5, "MINUTE"))
                        .freshnessDeclared(true)
                        .checkpointInterval(Duration.ofMinutes(5))
                        .cron(null)
                        .partitionFormatters(Map.of())
                        .changelogMode("[I]")
                        .upsertKey(
                                new RefreshPlan.UpsertKey(
                                        List.of("id"), RefreshPlan.UpsertKey.Origin.DECLARED))
                        .upstreamTables(List.of())
                        .reasons(
                                List.of(
                                        "CONTINUOUS because the freshness 5 min is below the"
                                                + " threshold 30 min."))
                        .warnings(List.of())
                        .plannedAt(Instant.now())
                        .build();
        StatementRequests.publishPlan(table, plan);

        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                post("DESCRIBE MATERIALIZED TABLE " + DB + ".mt", 200)
                                        .then()
                                        .body("rows", hasItem(List.of("plan.mode", "CONTINUOUS")))
                                        .body(
                                                "rows",
                                                hasItem(
                                                        List.of(
                                                                "plan.reason.1",
                                                                "CONTINUOUS because the freshness 5"
                                                                    + " min is below the threshold"
                                                                    + " 30 min.")))
                                        .body(
                                                "rows",
                                                hasItem(List.of("plan.changelog_mode", "[I]")))
                                        .body(
                                                "rows",
                                                hasItem(
                                                        List.of(
                                                                "plan.upsert_key",
                                                                "(id) declared"))));
        post(
                        "SELECT refresh_mode FROM information_schema.materialized_tables WHERE"
                                + " table_name = '"
                                + table
                                + "'",
                        200)
                .then()
                .body("rows", hasItem(List.of("CONTINUOUS")));
        post("ALTER MATERIALIZED TABLE " + DB + ".mt REFRESH", 409)
                .then()
                .body("title", org.hamcrest.Matchers.equalTo("RefreshOfContinuousTable"));
    }

    @Test
    void aFullTableShowsItsNextRefreshAtTheNextBoundary() throws Exception {
        DialectIT.awaitReady();
        String table = "default_catalog." + DB + ".hourly";
        post(
                "CREATE TABLE IF NOT EXISTS "
                        + DB
                        + ".src (id BIGINT NOT NULL, v STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".hourly FRESHNESS = INTERVAL '1' HOUR AS SELECT id, v FROM "
                        + DB
                        + ".src",
                202);
        RefreshPlan plan =
                RefreshPlanBuilder.builder()
                        .table(table)
                        .definitionVersion(1)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.FULL)
                        .freshness(new RefreshPlan.Freshness(1, "HOUR"))
                        .freshnessDeclared(true)
                        .checkpointInterval(null)
                        .cron("0 0 0/1 * * ? *")
                        .partitionFormatters(Map.of())
                        .changelogMode("[I]")
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .reasons(
                                List.of(
                                        "FULL because the freshness 1 h is not below the threshold"
                                                + " 30 min."))
                        .warnings(List.of())
                        .plannedAt(Instant.now())
                        .build();
        StatementRequests.publishPlan(table, plan);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                post("DESCRIBE MATERIALIZED TABLE " + DB + ".hourly", 200)
                                        .then()
                                        .body("rows", hasItem(List.of("plan.mode", "FULL"))));

        var rows =
                new ObjectMapper()
                        .readTree(
                                post("DESCRIBE MATERIALIZED TABLE " + DB + ".hourly", 200)
                                        .asString())
                        .path("rows");
        Instant next = null;
        for (var row : rows) {
            if (row.get(0).asText().equals("refresh.next_refresh")) {
                next = Instant.parse(row.get(1).asText());
            }
        }
        Assertions.assertThat(next)
                .as("the next full hour")
                .isNotNull()
                .isAfter(Instant.now())
                .isBefore(Instant.now().plus(Duration.ofHours(1)).plusSeconds(5));
        Assertions.assertThat(next.getEpochSecond() % 3600).isZero();
    }
}
