package io.mtables.ddl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A new ddl-service instance rebuilds the catalog from Kafka alone: every accepted table, its
 * latest version and its status, and the record of answered request ids.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class CatalogRestartIT {

    private static final String DB = "restart_" + UUID.randomUUID().toString().substring(0, 8);

    @Inject DdlConfig config;

    @Test
    void aNewInstanceSeesEveryAcceptedTableAndEveryAnsweredRequest() {
        DialectIT.awaitReady();
        post(
                "CREATE TABLE "
                        + DB
                        + ".src (id BIGINT NOT NULL, v STRING) WITH ('connector' = 'datagen')",
                "r1-" + DB);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".mt FRESHNESS = INTERVAL '1' MINUTE AS SELECT id, v FROM "
                        + DB
                        + ".src",
                "r2-" + DB);
        post(
                "CREATE MATERIALIZED TABLE " + DB + ".chain AS SELECT id FROM " + DB + ".mt",
                "r3-" + DB);
        post("ALTER MATERIALIZED TABLE " + DB + ".mt SUSPEND", "r4-" + DB);
        post(
                "CREATE MATERIALIZED TABLE " + DB + ".gone AS SELECT v FROM " + DB + ".src",
                "r5-" + DB);
        post("DROP MATERIALIZED TABLE " + DB + ".gone", "r6-" + DB);

        DdlRuntime restarted = new DdlRuntime();
        restarted.start(
                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                "ddl-service",
                PlannerSettings.defaults(),
                config,
                Clock.systemUTC(),
                new PlanProjection());
        await().atMost(Duration.ofSeconds(60)).until(restarted::ready);

        StatementResult tables =
                restarted.withService(
                        s ->
                                s.execute(
                                        "q-" + UUID.randomUUID(),
                                        "SHOW MATERIALIZED TABLES FROM " + DB));
        assertThat(tables.rows())
                .containsExactly(
                        List.of(
                                "default_catalog." + DB + ".chain",
                                "AUTO",
                                "default of the mode",
                                "ACTIVE"),
                        List.of(
                                "default_catalog." + DB + ".mt",
                                "AUTO",
                                "INTERVAL '1' MINUTE",
                                "SUSPENDED"));
        Optional<StatementResult> answered = restarted.withService(s -> s.operation("r2-" + DB));
        assertThat(answered.map(StatementResult::message).orElse("")).contains("created");
        StatementResult again =
                restarted.withService(
                        s -> s.execute("r6-" + DB, "DROP MATERIALIZED TABLE " + DB + ".gone"));
        assertThat(again.status()).isEqualTo(StatementResult.Status.SUCCEEDED);
        StatementResult chainStillValid =
                restarted.withService(
                        s ->
                                s.execute(
                                        "q-" + UUID.randomUUID(),
                                        "CREATE MATERIALIZED TABLE "
                                                + DB
                                                + ".chain2 AS SELECT id FROM "
                                                + DB
                                                + ".chain"));
        assertThat(chainStillValid.status())
                .as(chainStillValid.message())
                .isEqualTo(StatementResult.Status.SUCCEEDED);
    }

    private static void post(String statement, String requestId) {
        given().contentType(ContentType.JSON)
                .body(Map.of("statement", statement, "requestId", requestId))
                .post("/api/v1/statements")
                .then()
                .statusCode(202);
    }
}
