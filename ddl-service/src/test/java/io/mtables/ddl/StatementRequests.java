package io.mtables.ddl;

import static io.restassured.RestAssured.given;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.TopicProbe;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the ddl-service ITs send: statements over REST, and plans as planner-service writes them.
 */
final class StatementRequests {

    /** The headers of a command on {@code mt.ddl.commands} sent as the tests' service account. */
    static final Map<String, String> CREDENTIALS =
            Map.of(EventHeaders.AUTHORIZATION, TestCredentials.AUTHORIZATION);

    private StatementRequests() {}

    /** A request to the REST port as the tests' service account. */
    static RequestSpecification caller() {
        return given().header("Authorization", TestCredentials.AUTHORIZATION);
    }

    /** A request to the management port ({@code /q/*}), which asks for no credentials. */
    static RequestSpecification management() {
        return given().port(
                        ConfigProvider.getConfig()
                                .getValue("quarkus.management.test-port", Integer.class));
    }

    /** ddl-service's /q/metrics, as Prometheus scrapes it. */
    static String metrics() {
        return management().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /**
     * A generated source {@code db.src (id BIGINT)} and, over it, a materialized table of each
     * name, as the admin.
     */
    static void sourceAndTablesOverIt(String db, String... names) {
        post("CREATE TABLE " + db + ".src (id BIGINT) WITH ('connector' = 'datagen')", 202);
        for (String name : names) {
            post(
                    "CREATE MATERIALIZED TABLE "
                            + db
                            + "."
                            + name
                            + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id FROM "
                            + db
                            + ".src",
                    202);
        }
    }

    /** A JWT of the tests' identity provider (auth/) for {@code subject}. */
    static String jwt(String subject) {
        return io.smallrye.jwt.build.Jwt.issuer("https://idp.example.test")
                .audience("mtables")
                .subject(subject)
                .sign("auth/test-jwt-private.pem");
    }

    /** Sends {@code statement} and checks the answer's HTTP status. */
    static Response post(String statement, int status) {
        var response =
                caller().contentType(ContentType.JSON)
                        .body(Map.of("statement", statement))
                        .post("/api/v1/statements");
        response.then().statusCode(status);
        return response;
    }

    /**
     * Writes a CONTINUOUS plan of version 1 of {@code table}, upserting on (category), as
     * planner-service would.
     */
    static void publishContinuousPlan(String table) {
        RefreshPlan plan =
                RefreshPlanBuilder.builder()
                        .table(table)
                        .definitionVersion(1)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.CONTINUOUS)
                        .freshness(new RefreshPlan.Freshness(5, "SECOND"))
                        .freshnessDeclared(true)
                        .checkpointInterval(Duration.ofMillis(2500))
                        .cron(null)
                        .partitionFormatters(Map.of())
                        .changelogMode("[I,UA]")
                        .upsertKey(
                                new RefreshPlan.UpsertKey(
                                        List.of("category"), RefreshPlan.UpsertKey.Origin.DERIVED))
                        .upstreamTables(List.of())
                        .reasons(List.of("CONTINUOUS (test)"))
                        .warnings(List.of())
                        .plannedAt(Instant.now())
                        .build();
        publishPlan(table, plan);
    }

    /** Publishes {@code plan} of {@code table} on the plans topic, as planner-service does. */
    static void publishPlan(String table, RefreshPlan plan) {
        try (TopicProbe probe = new TopicProbe()) {
            probe.send(
                    Topics.REFRESH_PLANS,
                    table,
                    new ContractCodec().encode(Contracts.REFRESH_PLANNED_V1, plan),
                    Map.of(EventHeaders.TYPE, Contracts.REFRESH_PLANNED_V1.type()));
        }
    }

    /**
     * Writes {@code payload} about the table {@code key} on mt.refresh.events, as the job manager
     * does.
     */
    static <T> void sendRefreshEvent(
            TopicProbe probe, Contract<T> contract, String key, T payload) {
        sendEvent(probe, Topics.REFRESH_EVENTS, contract, key, payload);
    }

    /** One record as a service would write it: the payload, its type in the header. */
    static <T> void sendEvent(
            TopicProbe probe, String topic, Contract<T> contract, String key, T payload) {
        probe.send(
                topic,
                key,
                new ContractCodec().encode(contract, payload),
                Map.of(EventHeaders.TYPE, contract.type()));
    }
}
