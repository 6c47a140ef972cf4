package io.mtables.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Topics;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.TopicProbe;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ddl-service and planner-service as separate processes over the real broker: a CREATE through REST
 * leads to a plan that DESCRIBE shows; a SET FRESHNESS across the threshold leads to a new plan
 * version in the other mode; a planner restart plans nothing again.
 */
class PlanAcrossServicesIT {

    private static final String DB = "sys_" + UUID.randomUUID().toString().substring(0, 8);
    private static ServiceProcess ddl;
    private static ServiceProcess planner;

    @BeforeAll
    static void startServices() throws Exception {
        ddl = new ServiceProcess("ddl-service", 18081).start();
        planner = new ServiceProcess("planner-service", 18082).start();
    }

    @AfterAll
    static void stopServices() throws Exception {
        if (planner != null) {
            planner.stop();
        }
        if (ddl != null) {
            ddl.stop();
        }
    }

    @Test
    void createPlansContinuousAndAFreshnessAcrossTheThresholdReplansAsFull() throws Exception {
        String table = DB + ".clicks_by_category";
        String qualified = "default_catalog." + table;
        TopicProbe plans = new TopicProbe().tail(Topics.REFRESH_PLANS);
        post(
                "CREATE TABLE "
                        + DB
                        + ".clicks (id BIGINT, category STRING) WITH ('connector' = 'kafka',"
                        + " 'topic' = 'clicks', 'format' = 'json', 'properties.bootstrap.servers' ="
                        + " '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + table
                        + " FRESHNESS = INTERVAL '5' MINUTE AS SELECT category, COUNT(*) AS n FROM "
                        + DB
                        + ".clicks GROUP BY category",
                202);

        awaitDescribe(
                table,
                List.of("plan.mode", "CONTINUOUS"),
                List.of("plan.checkpoint_interval", "PT2M30S"),
                List.of("plan.mini_batch", "PT2M30S"),
                List.of(
                        "plan.upsert_key",
                        "__mt_key = NULL-safe encoding of (category), derived from the query"));

        post("ALTER MATERIALIZED TABLE " + table + " SET FRESHNESS = INTERVAL '1' HOUR", 202);

        awaitDescribe(
                table,
                List.of("version", "2"),
                List.of("plan.mode", "FULL"),
                List.of("plan.cron", "0 0 0/1 * * ? *"));

        planner.stop();
        planner = new ServiceProcess("planner-service", 18082).start();
        post("ALTER MATERIALIZED TABLE " + table + " SET FRESHNESS = INTERVAL '10' SECOND", 202);
        awaitDescribe(
                table,
                List.of("version", "3"),
                List.of("plan.mode", "CONTINUOUS"),
                List.of("plan.checkpoint_interval", "PT5S"));

        try (plans) {
            List<Long> versions = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                versions.add(
                        versionOf(
                                plans.await(r -> qualified.equals(r.key()), Duration.ofSeconds(30))
                                        .value()));
            }
            assertThat(versions)
                    .as("one plan per version, none re-emitted by the restarted planner")
                    .containsExactly(1L, 2L, 3L);
            assertThatThrownBy(
                            () ->
                                    plans.await(
                                            r -> qualified.equals(r.key()), Duration.ofSeconds(5)))
                    .isInstanceOf(AssertionError.class);
        }
    }

    private static long versionOf(String plan) {
        try {
            return new ObjectMapper().readTree(plan).path("definitionVersion").asLong();
        } catch (IOException e) {
            throw new AssertionError("a plan that is not JSON: " + plan, e);
        }
    }

    private static void awaitDescribe(String table, List<?>... rows) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () -> {
                            var body = post("DESCRIBE MATERIALIZED TABLE " + table, 200).then();
                            for (List<?> row : rows) {
                                body.body("rows", hasItem(row));
                            }
                        });
    }

    /**
     * What only the packaged service shows: its API's contract and Swagger UI on the API's port,
     * and the catalog PostgreSQL's clients query, run by H2 calling back into the service's classes
     * (its functions) under Quarkus's production class loader.
     */
    @Test
    void thePackagedServiceServesSwaggerUiAndPostgresCatalog() {
        given().baseUri(ddl.baseUri())
                .get("/q/swagger-ui/")
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString("swagger-ui"));
        given().baseUri(ddl.baseUri())
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString("/api/v1/statements"))
                .body(org.hamcrest.Matchers.containsString("scheme: bearer"));

        String schema = DB + "_pg";
        post(
                "CREATE TABLE "
                        + schema
                        + ".orders (id BIGINT, note STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('connector' = 'datagen')",
                202);
        post(
                        "SELECT c.relname, pg_catalog.pg_get_userbyid(c.relowner) AS owner,"
                                + " pg_catalog.format_type(a.atttypid, a.atttypmod) AS type FROM"
                                + " pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid ="
                                + " c.relnamespace JOIN pg_catalog.pg_attribute a ON a.attrelid ="
                                + " c.oid WHERE n.nspname = '"
                                + schema
                                + "' AND c.relkind = 'r' ORDER BY a.attnum",
                        200)
                .then()
                .body(
                        "rows",
                        org.hamcrest.Matchers.contains(
                                List.of("orders", "service-account:tests", "bigint"),
                                List.of("orders", "service-account:tests", "text")));
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
