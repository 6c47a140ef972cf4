package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
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
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A new ddl-service instance rebuilds the catalog from Kafka alone: every accepted table, its
 * latest version and its status, and the record of answered request ids.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class CatalogRestartIT {

    private static final String DB = "restart_" + UUID.randomUUID().toString().substring(0, 8);

    /** The tests' service account, as ddl-service names the caller of their statements. */
    private static final String CALLER = "service-account:" + TestCredentials.ACCOUNT;

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

        DdlRuntime restarted = anotherInstance();

        StatementResult tables =
                restarted.withService(
                        s ->
                                s.execute(
                                        "q-" + UUID.randomUUID(),
                                        "SHOW MATERIALIZED TABLES FROM " + DB,
                                        CALLER));
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
        Optional<StatementResult> answered =
                restarted.withService(s -> s.operation("r2-" + DB, CALLER));
        assertThat(answered.map(StatementResult::message).orElse("")).contains("created");
        StatementResult again =
                restarted.withService(
                        s ->
                                s.execute(
                                        "r6-" + DB,
                                        "DROP MATERIALIZED TABLE " + DB + ".gone",
                                        CALLER));
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
                                                + ".chain",
                                        CALLER));
        assertThat(chainStillValid.status())
                .as(chainStillValid.message())
                .isEqualTo(StatementResult.Status.SUCCEEDED);
    }

    /**
     * A command answered by an instance that then died before committing its offset is delivered
     * again to the next one: it is not answered twice. The same request id sent again (another
     * record) gets its first result once more. A request whose change was written but whose result
     * was not is answered with that change, not executed again.
     */
    @Test
    void aRedeliveredCommandIsNotAnsweredAgainButOneSentAgainIs() throws Exception {
        DialectIT.awaitReady();
        String db = "redeliver_" + UUID.randomUUID().toString().substring(0, 8);
        String requestId = "c-" + db;
        String create = "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')";
        try (TopicProbe probe = new TopicProbe().tail(Topics.DDL_RESULTS)) {
            probe.send(
                    Topics.DDL_COMMANDS,
                    requestId,
                    "{\"statement\": \"" + create + "\", \"requestId\": \"" + requestId + "\"}",
                    StatementRequests.CREDENTIALS);
            var first = awaitResult(probe, requestId);
            String position = TopicProbe.header(first, EventHeaders.COMMAND);
            assertThat(position).as("the command's position").startsWith(Topics.DDL_COMMANDS + "-");
            // A change whose result never reached the result log (here: removed from it).
            String lost = "lost-" + db;
            post("CREATE TABLE " + db + ".u (a INT) WITH ('connector' = 'datagen')", lost);
            awaitResult(probe, lost);
            probe.send(Topics.DDL_RESULTS, lost, null, Map.of());

            DdlRuntime next = anotherInstance();
            // The same record again, as Kafka redelivers it, then the same request id in a new
            // record: only the second is answered.
            next.withService(s -> s.executeCommand(requestId, create, position, CALLER, null));
            // Positions no real record has, and no earlier run on the same broker used (an instance
            // reads the positions answered from the result log).
            long unused = Long.MAX_VALUE - 2 - ThreadLocalRandom.current().nextLong(1L << 40);
            String sentAgain = Topics.DDL_COMMANDS + "-0@" + unused;
            next.withService(s -> s.executeCommand(requestId, create, sentAgain, CALLER, null));

            StatementResult lostAgain =
                    next.withService(
                            s ->
                                    s.executeCommand(
                                            lost,
                                            "CREATE TABLE "
                                                    + db
                                                    + ".u (a INT) WITH ('connector' = 'datagen')",
                                            Topics.DDL_COMMANDS + "-0@" + (unused + 1),
                                            CALLER,
                                            null));
            assertThat(lostAgain.status())
                    .as("a change made, its result lost: %s", lostAgain.message())
                    .isEqualTo(StatementResult.Status.SUCCEEDED);
            assertThat(lostAgain.table()).isEqualTo("default_catalog." + db + ".u");

            var second = awaitResult(probe, requestId);
            assertThat(TopicProbe.header(second, EventHeaders.COMMAND))
                    .as("the next result of %s answers the command sent again", requestId)
                    .isEqualTo(sentAgain);
            assertThat(second.value()).isEqualTo(first.value());
        }
    }

    /** A second ddl-service runtime in this JVM, as the next instance would start: ready. */
    private DdlRuntime anotherInstance() {
        DdlRuntime instance = new DdlRuntime();
        instance.start(
                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                "ddl-service",
                PlannerSettings.defaults(),
                config,
                Clock.systemUTC(),
                new PlanProjection());
        await().atMost(Duration.ofSeconds(60)).until(instance::ready);
        return instance;
    }

    private static ConsumerRecord<String, String> awaitResult(TopicProbe probe, String key) {
        return probe.await(
                record -> record.topic().equals(Topics.DDL_RESULTS) && key.equals(record.key()),
                Duration.ofSeconds(60));
    }

    private static void post(String statement, String requestId) {
        StatementRequests.caller()
                .contentType(ContentType.JSON)
                .body(Map.of("statement", statement, "requestId", requestId))
                .post("/api/v1/statements")
                .then()
                .statusCode(202);
    }
}
