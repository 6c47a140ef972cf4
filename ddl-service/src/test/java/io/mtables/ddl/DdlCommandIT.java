package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.ddl.infra.CommandForwarder;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.SealedRows;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Commands through the real broker: every command on mt.ddl.commands gets one result back. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class DdlCommandIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private TopicProbe probe;

    @BeforeEach
    void tailResults() {
        DialectIT.awaitReady();
        probe = new TopicProbe().tail(Topics.DDL_RESULTS).tail(Topics.DEAD_LETTERS);
    }

    @AfterEach
    void close() {
        probe.close();
    }

    @Test
    void commandThatIsNotJsonGetsAMalformedCommandResultUnderItsKey() throws Exception {
        String key = "it-" + UUID.randomUUID();

        probe.send(
                Topics.DDL_COMMANDS,
                key,
                "SHOW MATERIALIZED TABLES",
                StatementRequests.CREDENTIALS);

        ConsumerRecord<String, String> result = awaitResult(key);
        ConsumerRecord<String, String> dead =
                probe.await(
                        r -> r.topic().equals(Topics.DEAD_LETTERS) && key.equals(r.key()),
                        Duration.ofSeconds(60));
        assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                .contains("ddl-service cannot read the command at mt.ddl.commands-");
        JsonNode body = JSON.readTree(result.value());
        assertThat(body.path("status").asText()).isEqualTo("FAILED");
        assertThat(body.path("error").path("reason").asText()).isEqualTo("MalformedCommand");
        assertThat(body.path("error").path("message").asText()).contains("not JSON");
        assertThat(body.path("error").path("allowed").asText()).contains("\"statement\"");
        assertThat(TopicProbe.header(result, EventHeaders.TYPE))
                .isEqualTo(Contracts.STATEMENT_RESULT_V1.type());
        assertThat(TopicProbe.header(result, EventHeaders.SUBJECT)).isEqualTo(key);
        assertThat(TopicProbe.header(result, EventHeaders.SOURCE)).isEqualTo("ddl-service");
    }

    /**
     * What a standby does with a statement sent to it: a command with the request's id, answered
     * with the active instance's result (this test's application is the active instance), once; a
     * query's rows sealed on the log with the key the caller's credential gives, which any instance
     * derives again.
     */
    @Test
    void aForwardedStatementIsAnsweredByTheActiveInstanceOnce() throws Exception {
        String db = "fwd_" + UUID.randomUUID().toString().substring(0, 8);
        String requestId = "forwarded-" + db;
        String create = "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')";
        try (CommandForwarder standby =
                        new CommandForwarder(
                                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                                "standby",
                                1000);
                CommandForwarder another =
                        new CommandForwarder(
                                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                                "another-standby",
                                1000)) {
            StatementResult answer =
                    standby.forward(
                            requestId,
                            create,
                            TestCredentials.AUTHORIZATION,
                            Duration.ofSeconds(60));
            assertThat(answer.requestId()).isEqualTo(requestId);
            assertThat(answer.status()).isEqualTo(StatementResult.Status.SUCCEEDED);
            assertThat(answer.table()).isEqualTo("default_catalog." + db + ".t");

            StatementResult again =
                    standby.forward(
                            requestId,
                            "DROP TABLE " + db + ".t",
                            TestCredentials.AUTHORIZATION,
                            Duration.ofSeconds(60));
            assertThat(again).as("the same request id: its first result").isEqualTo(answer);
            assertThat(standby.operation(requestId, Duration.ofSeconds(10))).contains(answer);
            assertThat(standby.operation("never-sent", Duration.ofSeconds(10))).isEmpty();

            StatementResult shown =
                    standby.forward(
                            "show-" + db,
                            "SHOW TABLES FROM " + db,
                            TestCredentials.AUTHORIZATION,
                            Duration.ofSeconds(60));
            assertThat(shown.rows())
                    .as("a query forwarded: its rows")
                    .containsExactly(List.of("default_catalog." + db + ".t", "SOURCE_TABLE"));
            JsonNode onTheLog = JSON.readTree(awaitResult("show-" + db).value());
            assertThat(onTheLog.has("rows")).as("no rows in the clear on the log").isFalse();
            byte[] sealed = Base64.getDecoder().decode(onTheLog.path("sealedRows").asText());
            assertThat(new String(sealed, StandardCharsets.ISO_8859_1))
                    .as("the rows are not readable in what the log holds")
                    .doesNotContain(db);

            StatementResult elsewhere =
                    another.forward(
                            "show-" + db,
                            "SHOW TABLES FROM " + db,
                            TestCredentials.AUTHORIZATION,
                            Duration.ofSeconds(60));
            assertThat(elsewhere.rows())
                    .as("the same request through another instance: the caller's key opens it")
                    .isEqualTo(shown.rows());
        }
    }

    @Test
    void commandWithoutStatementIsRefusedNamingTheMissingField() throws Exception {
        String key = "it-" + UUID.randomUUID();

        probe.send(
                Topics.DDL_COMMANDS,
                key,
                "{\"sql\": \"SHOW TABLES\"}",
                StatementRequests.CREDENTIALS);

        JsonNode body = JSON.readTree(awaitResult(key).value());
        assertThat(body.path("error").path("reason").asText()).isEqualTo("MalformedCommand");
        assertThat(body.path("error").path("message").asText()).contains("statement");
    }

    @Test
    void statementsOverKafkaChangeTheCatalogAndAnswerQueriesWithRowsSealedWithTheSendersKey()
            throws Exception {
        String db = "cmd_" + UUID.randomUUID().toString().substring(0, 8);
        String create =
                "{\"statement\": \"CREATE TABLE "
                        + db
                        + ".t (a INT) WITH ('connector' = 'datagen')\", \"requestId\": \"c-"
                        + db
                        + "\"}";
        String show =
                "{\"statement\": \"SHOW TABLES FROM " + db + "\", \"requestId\": \"s-" + db + "\"}";
        String keyless =
                "{\"statement\": \"SHOW TABLES FROM " + db + "\", \"requestId\": \"k-" + db + "\"}";
        String rowsKey = SealedRows.newKey();

        probe.send(Topics.DDL_COMMANDS, "c-" + db, create, StatementRequests.CREDENTIALS);
        JsonNode created = JSON.readTree(awaitResult("c-" + db).value());
        probe.send(Topics.DDL_COMMANDS, "s-" + db, show, withRowsKey(rowsKey));
        JsonNode shown = JSON.readTree(awaitResult("s-" + db).value());
        probe.send(Topics.DDL_COMMANDS, "k-" + db, keyless, StatementRequests.CREDENTIALS);
        JsonNode refused = JSON.readTree(awaitResult("k-" + db).value());
        probe.send(Topics.DDL_COMMANDS, "c-" + db, create, StatementRequests.CREDENTIALS);
        JsonNode repeated = JSON.readTree(awaitResult("c-" + db).value());

        assertThat(created.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(created.path("table").asText()).isEqualTo("default_catalog." + db + ".t");
        assertThat(shown.has("rows")).as("never in the clear on the log").isFalse();
        assertThat(
                        SealedRows.open(
                                shown.path("sealedRows").asText(),
                                "s-" + db,
                                SealedRows.key(rowsKey)))
                .containsExactly(List.of("default_catalog." + db + ".t", "SOURCE_TABLE"));
        assertThat(shown.path("principal").asText())
                .as("a query's result is its sender's too: a standby hands it only to them")
                .isEqualTo(TestCredentials.PRINCIPAL);
        assertThat(refused.path("status").asText()).isEqualTo("FAILED");
        assertThat(refused.path("error").path("reason").asText()).isEqualTo("QueryNeedsResultKey");
        assertThat(refused.path("error").path("allowed").asText())
                .contains(EventHeaders.RESULT_KEY);
        assertThat(refused.has("rows") || refused.has("sealedRows")).isFalse();
        assertThat(repeated).isEqualTo(created);
    }

    @Test
    void aResultKeyThatIsNotAnAesKeyIsRefusedAndDeadLetteredWithoutIt() throws Exception {
        String key = "badkey-" + UUID.randomUUID();
        probe.send(
                Topics.DDL_COMMANDS,
                key,
                "{\"statement\": \"SHOW MATERIALIZED TABLES\"}",
                withRowsKey("c2hvcnQ="));

        JsonNode result = JSON.readTree(awaitResult(key).value());
        ConsumerRecord<String, String> dead =
                probe.await(
                        record ->
                                record.topic().equals(Topics.DEAD_LETTERS)
                                        && key.equals(record.key()),
                        Duration.ofSeconds(60));

        assertThat(result.path("error").path("reason").asText()).isEqualTo("MalformedCommand");
        assertThat(result.path("error").path("message").asText())
                .contains(EventHeaders.RESULT_KEY, "5 bytes");
        assertThat(dead.headers().lastHeader(EventHeaders.RESULT_KEY))
                .as("a secret: not copied to the dead letters")
                .isNull();
        assertThat(dead.headers().lastHeader(EventHeaders.AUTHORIZATION)).isNull();
    }

    private static Map<String, String> withRowsKey(String rowsKey) {
        Map<String, String> headers = new HashMap<>(StatementRequests.CREDENTIALS);
        headers.put(EventHeaders.RESULT_KEY, rowsKey);
        return headers;
    }

    @Test
    void refreshPartitionBecomesALifecycleCommandForTheTable() throws Exception {
        String db = "ref_" + UUID.randomUUID().toString().substring(0, 8);
        String table = "default_catalog." + db + ".daily";
        try (TopicProbe lifecycle = new TopicProbe().tail(Topics.LIFECYCLE_COMMANDS)) {
            for (String statement :
                    List.of(
                            "CREATE TABLE "
                                    + db
                                    + ".src (id BIGINT NOT NULL, ds STRING) WITH ('connector' ="
                                    + " 'datagen')",
                            "CREATE MATERIALIZED TABLE "
                                    + db
                                    + ".daily PARTITIONED BY (ds) FRESHNESS = INTERVAL '1' DAY AS"
                                    + " SELECT ds, count(*) AS n FROM "
                                    + db
                                    + ".src GROUP BY ds",
                            "ALTER MATERIALIZED TABLE "
                                    + db
                                    + ".daily REFRESH PARTITION (ds = '2026-11-28')")) {
                String key = "it-" + UUID.randomUUID();
                probe.send(
                        Topics.DDL_COMMANDS,
                        key,
                        JSON.writeValueAsString(Map.of("statement", statement)),
                        StatementRequests.CREDENTIALS);
                assertThat(JSON.readTree(awaitResult(key).value()).path("status").asText())
                        .isEqualTo("SUCCEEDED");
            }

            var command = lifecycle.await(r -> table.equals(r.key()), Duration.ofSeconds(60));

            assertThat(TopicProbe.header(command, EventHeaders.TYPE))
                    .isEqualTo(Contracts.REFRESH_REQUESTED_V1.type());
            assertThat(JSON.readTree(command.value()).path("partition").toString())
                    .isEqualTo("{\"ds\":\"2026-11-28\"}");
            assertThat(JSON.readTree(command.value()).path("definitionVersion").asLong())
                    .isEqualTo(1L);
        }
    }

    @Test
    void tooLargeAStatementIsRefusedAndTheNextCommandStillRuns() throws Exception {
        String big = "it-" + UUID.randomUUID();
        String next = "it-" + UUID.randomUUID();
        String huge = "SHOW TABLES LIKE '" + "x".repeat(300_000) + "'";

        probe.send(
                Topics.DDL_COMMANDS,
                big,
                "{\"statement\": \"" + huge + "\"}",
                StatementRequests.CREDENTIALS);
        probe.send(
                Topics.DDL_COMMANDS,
                next,
                "{\"statement\": \"SHOW MATERIALIZED TABLES\"}",
                withRowsKey(SealedRows.newKey()));

        assertThat(JSON.readTree(awaitResult(big).value()).path("error").path("reason").asText())
                .isEqualTo("StatementTooLarge");
        var dead =
                probe.await(
                        r -> r.topic().equals(Topics.DEAD_LETTERS) && big.equals(r.key()),
                        Duration.ofSeconds(60));
        assertThat(TopicProbe.header(dead, "dead-letter-reason")).contains("bytes");
        assertThat(JSON.readTree(awaitResult(next).value()).path("status").asText())
                .isEqualTo("SUCCEEDED");
    }

    @Test
    void requestIdInTheCommandWinsOverTheRecordKey() throws Exception {
        String requestId = "it-" + UUID.randomUUID();
        String command =
                "{\"statement\": \"SHOW MATERIALIZED TABLES\", \"requestId\": \""
                        + requestId
                        + "\"}";

        probe.send(Topics.DDL_COMMANDS, "some-other-key", command, StatementRequests.CREDENTIALS);

        assertThat(JSON.readTree(awaitResult(requestId).value()).path("requestId").asText())
                .isEqualTo(requestId);
    }

    @Test
    void aSelectOverKafkaIsAnsweredOnTheLogWhenItsReadFailsToo() throws Exception {
        String db = "cmdread_" + UUID.randomUUID().toString().substring(0, 8);
        StatementRequests.post(
                "CREATE TABLE "
                        + db
                        + ".visits (id BIGINT, ds STRING) WITH ('connector' = 'datagen')",
                202);
        StatementRequests.post(
                "CREATE MATERIALIZED TABLE "
                        + db
                        + ".daily FRESHNESS = INTERVAL '1' HOUR AS SELECT ds, COUNT(*) AS n FROM "
                        + db
                        + ".visits GROUP BY ds",
                202);
        String good =
                "{\"statement\": \"SELECT ds, n FROM "
                        + db
                        + ".daily\", \"requestId\": \"g-"
                        + db
                        + "\"}";
        // The column is checked only when the rows are read, after the catalog's turn.
        String bad =
                "{\"statement\": \"SELECT nope FROM "
                        + db
                        + ".daily\", \"requestId\": \"b-"
                        + db
                        + "\"}";

        probe.send(Topics.DDL_COMMANDS, "g-" + db, good, withRowsKey(SealedRows.newKey()));
        JsonNode read = JSON.readTree(awaitResult("g-" + db).value());
        probe.send(Topics.DDL_COMMANDS, "b-" + db, bad, withRowsKey(SealedRows.newKey()));
        JsonNode refused = JSON.readTree(awaitResult("b-" + db).value());

        assertThat(read.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(read.path("columns").size()).isEqualTo(2);
        assertThat(refused.path("status").asText()).isEqualTo("FAILED");
        assertThat(refused.path("error").path("message").asText()).contains("nope");
    }

    private ConsumerRecord<String, String> awaitResult(String key) {
        return probe.await(
                record -> record.topic().equals(Topics.DDL_RESULTS) && key.equals(record.key()),
                Duration.ofSeconds(60));
    }
}
