package io.mtables.ddl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The audit trail (issue 47): every statement answered, over REST or Kafka, allowed, denied or
 * unauthenticated, is a record on {@code mt.ddl.audit} (who, from where, the statement's SHA-256
 * and kind, never its text, and the outcome), and a row of the warehouse's {@code mt_system.audit},
 * which {@code information_schema.audit} reads: an admin reads every one, anyone else their own.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class AuditIT {

    private static final String ADMIN = TestCredentials.AUTHORIZATION;
    private static final String BOB = "Bearer " + StatementRequests.jwt("auditee-bob");

    @Test
    void everyStatementIsAuditedWithItsSenderAndOutcomeAndOnlyAdminsReadOthersRecords()
            throws Exception {
        DialectIT.awaitReady();
        String id = UUID.randomUUID().toString().substring(0, 8);
        String db = "audit_" + id;
        String create =
                "CREATE TABLE " + db + ".secret_orders (id BIGINT) WITH ('connector' = 'datagen')";
        String drop = "DROP TABLE " + db + ".secret_orders";
        String anonymous = "SHOW TABLES FROM " + db;
        try (TopicProbe probe = new TopicProbe().tail(Topics.DDL_AUDIT)) {
            assertThat(post(ADMIN, create, "create-" + id).statusCode()).isEqualTo(202);
            assertThat(post(BOB, drop, "drop-" + id).statusCode()).isEqualTo(403);
            assertThat(post(null, anonymous, "anon-" + id).statusCode()).isEqualTo(401);
            probe.send(
                    Topics.DDL_COMMANDS,
                    "cmd-" + id,
                    "{\"statement\": \"" + drop + "\", \"requestId\": \"cmd-" + id + "\"}",
                    Map.of());

            List<ConsumerRecord<String, String>> records =
                    List.of(
                            probe.await(
                                    r -> ("create-" + id).equals(r.key()), Duration.ofSeconds(60)),
                            probe.await(
                                    r -> ("drop-" + id).equals(r.key()), Duration.ofSeconds(60)),
                            probe.await(
                                    r ->
                                            r.value().contains("\"reason\":\"Unauthenticated\"")
                                                    && r.value().contains("\"via\":\"rest\""),
                                    Duration.ofSeconds(60)),
                            probe.await(
                                    r ->
                                            r.value().contains("\"reason\":\"Unauthenticated\"")
                                                    && r.value().contains("\"via\":\"kafka\""),
                                    Duration.ofSeconds(60)));
            assertThat(records)
                    .as("the trail holds no statement's text (nor a literal of it)")
                    .noneMatch(r -> r.value().contains("datagen") || r.value().contains(drop));
        }

        List<List<Object>> all =
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        rows(
                                                ADMIN,
                                                "SELECT principal, via, request_id,"
                                                        + " statement_sha256, statement_kind,"
                                                        + " table_name, status, reason, client FROM"
                                                        + " information_schema.audit WHERE"
                                                        + " request_id IN ('create-"
                                                        + id
                                                        + "', 'drop-"
                                                        + id
                                                        + "') ORDER BY request_id"),
                                found -> found.size() == 2);
        assertThat(all.get(0).subList(0, 8))
                .containsExactly(
                        "service-account:tests",
                        "rest",
                        "create-" + id,
                        sha256(create),
                        "CREATE TABLE",
                        "default_catalog." + db + ".secret_orders",
                        "SUCCEEDED",
                        null);
        assertThat(all.get(1).subList(0, 8))
                .containsExactly(
                        "user:auditee-bob",
                        "rest",
                        "drop-" + id,
                        sha256(drop),
                        "DROP TABLE",
                        null,
                        "FAILED",
                        "PermissionDenied");
        assertThat((String) all.get(1).get(8))
                .as("the caller's address")
                .matches("[0-9a-f.:]+:\\d+");

        // The rows reach mt_system.audit a commit at a time (a second's worth): awaited.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () ->
                                assertThat(
                                                rows(
                                                        ADMIN,
                                                        "SELECT via, client, statement_sha256 FROM"
                                                                + " information_schema.audit WHERE"
                                                                + " principal IS NULL AND reason ="
                                                                + " 'Unauthenticated'"))
                                        .anySatisfy(row -> assertThat(row.get(0)).isEqualTo("rest"))
                                        .anySatisfy(
                                                row -> {
                                                    assertThat(row.get(0)).isEqualTo("kafka");
                                                    assertThat((String) row.get(1))
                                                            .startsWith(Topics.DDL_COMMANDS + "-");
                                                    assertThat(row.get(2))
                                                            .as("its text is never read")
                                                            .isNull();
                                                }));

        List<List<Object>> bobs =
                rows(BOB, "SELECT principal, request_id FROM information_schema.audit");
        assertThat(bobs)
                .as("bob reads his own records only")
                .isNotEmpty()
                .allSatisfy(row -> assertThat(row.get(0)).isEqualTo("user:auditee-bob"));
        assertThat(bobs).anySatisfy(row -> assertThat(row.get(1)).isEqualTo("drop-" + id));
    }

    /**
     * A record on {@code mt.ddl.audit} that the audit table cannot hold (a forged one, unreadable)
     * is a dead letter with its reason, and the recording goes on past it: a statement answered
     * after it has its row.
     */
    @Test
    void anUnreadableAuditRecordIsADeadLetterAndTheRecordingGoesOn() {
        DialectIT.awaitReady();
        String id = UUID.randomUUID().toString().substring(0, 8);
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS)) {
            probe.send(
                    Topics.DDL_AUDIT,
                    "forged-" + id,
                    "{not json",
                    Map.of(EventHeaders.TYPE, Contracts.STATEMENT_AUDITED_V1.type()));
            ConsumerRecord<String, String> dead =
                    probe.await(
                            r ->
                                    ("forged-" + id).equals(r.key())
                                            && Topics.DDL_AUDIT.equals(
                                                    TopicProbe.header(r, "dead-letter-topic")),
                            Duration.ofSeconds(60));
            assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                    .contains("the audit trail cannot hold the record at " + Topics.DDL_AUDIT);
        }
        assertThat(post(ADMIN, "SHOW MATERIALIZED TABLES", "after-" + id).statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                rows(
                                        ADMIN,
                                        "SELECT request_id FROM information_schema.audit WHERE"
                                                + " request_id = 'after-"
                                                + id
                                                + "'"),
                        found -> found.size() == 1);
    }

    private static List<List<Object>> rows(String caller, String query) {
        Response response = post(caller, query, null);
        assertThat(response.statusCode()).as(query + ": " + response.asString()).isEqualTo(200);
        return response.jsonPath().getList("rows");
    }

    private static Response post(String caller, String statement, String requestId) {
        var request = given().contentType(ContentType.JSON);
        if (caller != null) {
            request = request.header("Authorization", caller);
        }
        return request.body(
                        requestId == null
                                ? Map.of("statement", statement)
                                : Map.of("statement", statement, "requestId", requestId))
                .post("/api/v1/statements");
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(
                        MessageDigest.getInstance("SHA-256")
                                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
