package io.mtables.ddl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Identity at the doors (issue 47): without valid credentials nothing is executed, over REST (401)
 * and on mt.ddl.commands (a refusal in mt.ddl.results); a service account's API key and a JWT of
 * the configured identity provider (issuer, audience, key: the %test profile) are let in.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class AuthenticationIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ISSUER = "https://idp.example.test";
    private static final String AUDIENCE = "mtables";
    private static final String PRIVATE_KEY = "auth/test-jwt-private.pem";

    private String db;

    @BeforeEach
    void ready() {
        DialectIT.awaitReady();
        db = "auth_" + UUID.randomUUID().toString().substring(0, 8);
        // alice (a JWT's subject) may create tables here: who may do what is AuthorizationIT's.
        StatementRequests.post("GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'", 202);
    }

    @TestHTTPResource(value = "/api/v1/statements", tls = true)
    URL statementsOverHttps;

    /** REST over HTTPS (docs/security.md, "HTTPS"), the server's certificate verified. */
    @Test
    void statementsGoOverHttpsWithTheCertificateVerified() throws Exception {
        assertThat(statementsOverHttps.getProtocol()).isEqualTo("https");
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (var pem =
                Files.newInputStream(Path.of("src/test/resources/wire/test-wire-cert.pem"))) {
            trusted.setCertificateEntry(
                    "ddl-service",
                    CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory trust =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        URI uri =
                URI.create(
                        "https://localhost:"
                                + statementsOverHttps.getPort()
                                + statementsOverHttps.getPath());
        HttpResponse<String> answer =
                HttpClient.newBuilder()
                        .sslContext(tls)
                        .build()
                        .send(
                                HttpRequest.newBuilder(uri)
                                        .header("authorization", TestCredentials.AUTHORIZATION)
                                        .header("content-type", "application/json")
                                        .POST(
                                                HttpRequest.BodyPublishers.ofString(
                                                        "{\"statement\": \"SHOW MATERIALIZED"
                                                                + " TABLES\"}"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).contains("\"columns\"");
    }

    @Test
    void withoutCredentialsNothingIsExecuted() {
        String create = "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')";

        Response anonymous = send(null, create);
        assertUnauthenticated(anonymous, "no credentials");
        assertUnauthenticated(send("Bearer mtk.tests.not-the-key", create), "not valid");
        assertUnauthenticated(send("Bearer mtk.nobody.whatever", create), "not valid");
        assertUnauthenticated(send("Basic dGVzdHM6dGVzdHM=", create), "no credentials");
        assertUnauthenticated(send("Bearer not.a.jwt", create), "not valid");
        assertUnauthenticated(
                given().get("/api/v1/operations/" + UUID.randomUUID()), "no credentials");

        assertThat(tables()).doesNotContain(table("t"));
    }

    @Test
    void aServiceAccountsKeyIsLetIn() {
        String create = "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')";

        assertThat(send(TestCredentials.AUTHORIZATION, create).statusCode()).isEqualTo(202);

        assertThat(tables()).contains(table("t"));
    }

    @Test
    void aJwtIsLetInOnlyFromTheConfiguredIssuerForThisAudienceUnexpired() throws Exception {
        String show = "SHOW MATERIALIZED TABLES";

        assertThat(send(bearer(jwt(UnaryOperator.identity())), show).statusCode()).isEqualTo(200);

        assertUnauthenticated(
                send(bearer(jwt(claims -> claims.issuer("https://elsewhere.test"))), show),
                "not valid");
        assertUnauthenticated(
                send(bearer(jwt(claims -> claims.audience("another-service"))), show), "not valid");
        assertUnauthenticated(
                send(
                        bearer(
                                jwt(
                                        claims ->
                                                claims.issuedAt(Instant.now().minusSeconds(7200))
                                                        .expiresAt(
                                                                Instant.now().minusSeconds(3600)))),
                        show),
                "not valid");
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String otherKey =
                Jwt.issuer(ISSUER)
                        .audience(AUDIENCE)
                        .subject("mallory")
                        .sign(generator.generateKeyPair().getPrivate());
        assertUnauthenticated(send(bearer(otherKey), show), "not valid");
    }

    @Test
    void healthAndMetricsLiveOnTheManagementPortOnly() {
        assertThat(given().get("/q/health/ready").statusCode()).isEqualTo(404);
        assertThat(given().get("/q/metrics").statusCode()).isEqualTo(404);
        StatementRequests.management().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aCommandWithoutValidCredentialsIsRefusedAndChangesNothing() throws Exception {
        String anonymous = "anon-" + db;
        String wrongKey = "wrong-" + db;
        String signed = "jwt-" + db;
        try (TopicProbe probe =
                new TopicProbe().tail(Topics.DDL_RESULTS).tail(Topics.DEAD_LETTERS)) {
            probe.send(Topics.DDL_COMMANDS, anonymous, command("a"), Map.of());
            probe.send(
                    Topics.DDL_COMMANDS,
                    wrongKey,
                    command("b"),
                    Map.of(EventHeaders.AUTHORIZATION, "Bearer mtk.tests.guessed"));
            probe.send(
                    Topics.DDL_COMMANDS,
                    signed,
                    command("c"),
                    Map.of(EventHeaders.AUTHORIZATION, bearer(jwt(UnaryOperator.identity()))));

            for (String refused : new String[] {anonymous, wrongKey}) {
                // Under the command's position, never under an id its sender claims.
                var dead =
                        probe.await(
                                r ->
                                        r.topic().equals(Topics.DEAD_LETTERS)
                                                && refused.equals(r.key()),
                                Duration.ofSeconds(60));
                assertThat(TopicProbe.header(dead, EventHeaders.AUTHORIZATION))
                        .as("the credential is not copied to the dead letters")
                        .isNull();
                String position =
                        Topics.DDL_COMMANDS
                                + "-"
                                + TopicProbe.header(dead, "dead-letter-partition")
                                + "@"
                                + TopicProbe.header(dead, "dead-letter-offset");
                JsonNode result = JSON.readTree(awaitResult(probe, position).value());
                assertThat(result.path("status").asText()).isEqualTo("FAILED");
                assertThat(result.path("error").path("reason").asText())
                        .isEqualTo("Unauthenticated");
                assertThat(result.has("principal")).isFalse();
            }
            JsonNode accepted = JSON.readTree(awaitResult(probe, signed).value());
            assertThat(accepted.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(accepted.path("principal").asText())
                    .as("a JWT's caller is its subject, not its preferred_username")
                    .isEqualTo("user:alice");
        }
        assertThat(tables()).containsExactly(table("c"));
    }

    /**
     * An authenticated caller's command that cannot be read (not JSON) under another caller's
     * request id is refused under its position: the other caller's result stays.
     */
    @Test
    void anUnreadableCommandDoesNotReplaceAnotherCallersResult() throws Exception {
        String requestId = "kept-" + db;
        StatementRequests.caller()
                .contentType(ContentType.JSON)
                .body(
                        Map.of(
                                "statement",
                                "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')",
                                "requestId",
                                requestId))
                .post("/api/v1/statements")
                .then()
                .statusCode(202);
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS)) {
            probe.send(
                    Topics.DDL_COMMANDS,
                    requestId,
                    "not json",
                    Map.of(EventHeaders.AUTHORIZATION, bearer(jwt(UnaryOperator.identity()))));
            probe.await(
                    r -> r.topic().equals(Topics.DEAD_LETTERS) && requestId.equals(r.key()),
                    Duration.ofSeconds(60));
        }

        StatementRequests.caller()
                .get("/api/v1/operations/" + requestId)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("SUCCEEDED"));
    }

    @Test
    void aForgedCommandDoesNotReplaceAnotherCallersResult() throws Exception {
        String requestId = "victim-" + db;
        given().header("Authorization", TestCredentials.AUTHORIZATION)
                .contentType(ContentType.JSON)
                .body(
                        Map.of(
                                "statement",
                                "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')",
                                "requestId",
                                requestId))
                .post("/api/v1/statements")
                .then()
                .statusCode(202);
        try (TopicProbe probe = new TopicProbe().tail(Topics.DDL_RESULTS)) {
            probe.send(Topics.DDL_COMMANDS, requestId, command("x"), Map.of());
            probe.await(
                    record ->
                            record.topic().equals(Topics.DDL_RESULTS)
                                    && record.value() != null
                                    && record.value().contains("Unauthenticated"),
                    Duration.ofSeconds(60));
        }

        StatementRequests.caller()
                .get("/api/v1/operations/" + requestId)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("SUCCEEDED"));
    }

    /**
     * Request ids are scoped per caller: another caller neither reads a result by its id nor runs a
     * statement under it (a refusal, nothing done); the sender still reads it.
     */
    @Test
    void aRequestIdIsItsSendersOnly() {
        String requestId = "mine-" + db;
        String alice = bearer(jwt(UnaryOperator.identity()));
        given().header("Authorization", TestCredentials.AUTHORIZATION)
                .contentType(ContentType.JSON)
                .body(
                        Map.of(
                                "statement",
                                "CREATE TABLE " + db + ".t (a INT) WITH ('connector' = 'datagen')",
                                "requestId",
                                requestId))
                .post("/api/v1/statements")
                .then()
                .statusCode(202);

        given().header("Authorization", alice)
                .get("/api/v1/operations/" + requestId)
                .then()
                .statusCode(404);
        Response reused =
                given().header("Authorization", alice)
                        .contentType(ContentType.JSON)
                        .body(
                                Map.of(
                                        "statement",
                                        "DROP TABLE " + db + ".t",
                                        "requestId",
                                        requestId))
                        .post("/api/v1/statements");
        assertThat(reused.statusCode()).as(reused.asString()).isEqualTo(409);
        assertThat(reused.jsonPath().getString("title")).isEqualTo("RequestIdInUse");

        assertThat(tables()).contains(table("t"));
        StatementRequests.caller()
                .get("/api/v1/operations/" + requestId)
                .then()
                .statusCode(200)
                .body("principal", org.hamcrest.Matchers.equalTo("service-account:tests"));
    }

    private String command(String table) throws Exception {
        return JSON.writeValueAsString(
                Map.of(
                        "statement",
                        "CREATE TABLE "
                                + db
                                + "."
                                + table
                                + " (a INT) WITH ('connector' = 'datagen')"));
    }

    private static io.restassured.response.Response send(String authorization, String statement) {
        var request = given().contentType(ContentType.JSON).body(Map.of("statement", statement));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request.post("/api/v1/statements");
    }

    private static void assertUnauthenticated(Response response, String detail) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(response.jsonPath().getString("title")).isEqualTo("Unauthenticated");
        assertThat(response.jsonPath().getString("detail")).contains(detail);
        assertThat(response.jsonPath().getString("allowed")).contains("Authorization: Bearer");
    }

    /** The tables of this test's schema; none when the schema does not exist. */
    private java.util.List<String> tables() {
        Response show =
                StatementRequests.caller()
                        .contentType(ContentType.JSON)
                        .body(Map.of("statement", "SHOW TABLES FROM " + db))
                        .post("/api/v1/statements");
        if (show.statusCode() != 200) {
            // Only an unknown schema means no table; anything else is the test's failure.
            assertThat(show.statusCode()).as(show.asString()).isIn(400, 404);
            return java.util.List.of();
        }
        return show.jsonPath().<java.util.List<String>>getList("rows").stream()
                .map(row -> row.get(0))
                .toList();
    }

    private String table(String name) {
        return "default_catalog." + db + "." + name;
    }

    private static String jwt(UnaryOperator<io.smallrye.jwt.build.JwtClaimsBuilder> change) {
        return change.apply(
                        Jwt.issuer(ISSUER)
                                .audience(AUDIENCE)
                                .subject("alice")
                                .preferredUserName("service-account:tests"))
                .sign(PRIVATE_KEY);
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    private static org.apache.kafka.clients.consumer.ConsumerRecord<String, String> awaitResult(
            TopicProbe probe, String key) {
        return probe.await(
                record -> record.topic().equals(Topics.DDL_RESULTS) && key.equals(record.key()),
                Duration.ofSeconds(60));
    }
}
