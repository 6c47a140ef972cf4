package io.mtables.ddl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who may do what (issue 47): roles, grants on schemas and tables, owners. Each denial is a 403
 * that changes nothing; SHOW and DESCRIBE show only what the caller may see. The tests' service
 * account is an admin (the %test profile's mt.auth.admins); alice and bob are users of the identity
 * provider (JWTs), with no privilege until one is granted.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class AuthorizationIT {

    private static final String ADMIN = TestCredentials.AUTHORIZATION;
    private static final String ALICE = "Bearer " + StatementRequests.jwt("alice");
    private static final String BOB = "Bearer " + StatementRequests.jwt("bob");

    @Inject DdlConfig config;

    private String db;
    private String role;

    @BeforeEach
    void schemaWithASource() {
        DialectIT.awaitReady();
        String id = UUID.randomUUID().toString().substring(0, 8);
        db = "authz_" + id;
        role = "analysts_" + id;
        expect(ADMIN, "CREATE ROLE " + role, 202);
        expect(
                ADMIN,
                "CREATE TABLE "
                        + db
                        + ".orders (id BIGINT, ds STRING) WITH ('connector' = 'datagen')",
                202);
    }

    /**
     * mt_access_seconds: an API key's check (a JWT's is SmallRye JWT's, not timed) and each
     * statement's privilege checks, with their p50 and p99 (bin/bench control-plane reads them).
     */
    @Test
    void whatIdentityAndPrivilegesCostEachStatementIsTimed() {
        double keys = accessCount("authentication");
        double statements = accessCount("authorization");
        expect(ADMIN, "SHOW MATERIALIZED TABLES", 200);
        denied(ALICE, "DESCRIBE " + db + ".orders");
        assertThat(accessCount("authentication")).as("API keys checked").isGreaterThan(keys);
        assertThat(accessCount("authorization"))
                .as("statements whose privileges were checked, a denied one included")
                .isGreaterThanOrEqualTo(statements + 2);
        assertThat(StatementRequests.metrics())
                .contains("mt_access_seconds{step=\"authorization\",quantile=\"0.99\"}");
    }

    private static double accessCount(String step) {
        var line =
                java.util.regex.Pattern.compile(
                                "(?m)^mt_access_seconds_count\\{[^}]*step=\""
                                        + step
                                        + "\"[^}]*\\} ([0-9.eE+-]+)$")
                        .matcher(StatementRequests.metrics());
        return line.find() ? Double.parseDouble(line.group(1)) : 0;
    }

    @Test
    void withoutAGrantAUserMayNeitherCreateNorSeeAndNothingChanges() {
        denied(ALICE, "CREATE TABLE " + db + ".x (a INT) WITH ('connector' = 'datagen')");
        denied(ALICE, byDs("CREATE MATERIALIZED TABLE"));
        denied(ALICE, "DESCRIBE " + db + ".orders");
        denied(ALICE, "DROP TABLE " + db + ".orders");
        denied(ALICE, "CREATE ROLE writers_" + role);
        denied(ALICE, "GRANT SELECT ON TABLE " + db + ".orders TO USER 'alice'");
        denied(ALICE, "GRANT ROLE " + role + " TO USER 'alice'");
        denied(ALICE, "GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'");

        assertThat(tables(ALICE)).isEmpty();
        assertThat(tables(ADMIN)).containsExactly(table("orders"));
        // Other tests of this JVM grant alice privileges in their schemas, none in this one.
        assertThat(rows(ALICE, "SHOW GRANTS"))
                .noneMatch(row -> row.get(3).startsWith("default_catalog." + db));
        assertThat(rows(ALICE, "SHOW GRANTS ON SCHEMA " + db)).isEmpty();
    }

    @Test
    void aMaterializedTableNeedsCreateOnItsSchemaAndSelectOnWhatItReadsAndIsItsCreators() {
        expect(ADMIN, "GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'", 202);
        Response noRead = denied(ALICE, byDs("CREATE MATERIALIZED TABLE"));
        assertThat(noRead.jsonPath().getString("detail"))
                .contains("user:alice may not SELECT default_catalog." + db + ".orders");

        expect(ADMIN, "GRANT SELECT ON TABLE " + db + ".orders TO ROLE " + role, 202);
        expect(ADMIN, "GRANT ROLE " + role + " TO USER 'alice'", 202);
        expect(ALICE, byDs("CREATE MATERIALIZED TABLE"), 202);

        assertThat(property(ALICE, "owner")).isEqualTo("user:alice");
        assertThat(tables(ALICE)).containsExactly(table("by_ds"), table("orders"));
        assertThat(rows(ALICE, "SHOW GRANTS ON TABLE " + db + ".by_ds"))
                .containsExactly(List.of("user:alice", "OWNER", "TABLE", table("by_ds")));
        // The owner changes and drops it; an admin may too.
        expect(ALICE, "ALTER MATERIALIZED TABLE " + db + ".by_ds SUSPEND", 202);
        expect(ADMIN, "ALTER MATERIALIZED TABLE " + db + ".by_ds RESUME", 202);
        assertThat(property(ALICE, "owner"))
                .as("an admin's change keeps the owner")
                .isEqualTo("user:alice");

        expect(ADMIN, "REVOKE ROLE " + role + " FROM USER 'alice'", 202);
        denied(ALICE, byDs("CREATE MATERIALIZED TABLE").replace("by_ds", "again"));
        denied(ALICE, "DESCRIBE " + db + ".orders");
        expect(ALICE, "DROP MATERIALIZED TABLE " + db + ".by_ds", 202);
        assertThat(tables(ADMIN)).containsExactly(table("orders"));
    }

    @Test
    void readsPlansAndChangesAreDeniedBeforeAnythingIsComputedAndASchemaGrantShowsItAll() {
        expect(ADMIN, byDs("CREATE MATERIALIZED TABLE"), 202);

        denied(BOB, "SELECT * FROM " + db + ".by_ds");
        denied(BOB, "EXPLAIN " + byDs("CREATE MATERIALIZED TABLE").replace("by_ds", "x"));
        Response evolution =
                denied(BOB, "CREATE OR ALTER MATERIALIZED TABLE " + db + ".by_ds AS SELECT 1 AS a");
        assertThat(evolution.jsonPath().getString("detail"))
                .as("refused by the name, before the hidden table's columns are compared")
                .contains("may not ALTER");
        denied(BOB, "ALTER MATERIALIZED TABLE " + db + ".by_ds REFRESH");
        assertThat(
                        rows(
                                BOB,
                                "SELECT table_name FROM information_schema.materialized_tables"
                                        + " WHERE table_name LIKE 'default_catalog."
                                        + db
                                        + ".%'"))
                .isEmpty();

        expect(ADMIN, "GRANT SELECT ON SCHEMA " + db + " TO ROLE " + role, 202);
        expect(ADMIN, "GRANT ROLE " + role + " TO USER 'bob'", 202);
        assertThat(tables(BOB)).containsExactly(table("by_ds"), table("orders"));
        expect(BOB, "SELECT * FROM " + db + ".by_ds", 200);
        denied(BOB, "DROP MATERIALIZED TABLE " + db + ".by_ds");

        expect(ADMIN, "DROP ROLE " + role, 202);
        assertThat(tables(BOB)).as("a dropped role's grants are gone").isEmpty();
    }

    @Test
    void anOwnerGrantsOnItsTableAndAGrantEndsWithTheTable() {
        expect(ADMIN, "GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'", 202);
        expect(ADMIN, "GRANT SELECT ON " + db + ".orders TO USER 'alice'", 202);
        expect(ALICE, byDs("CREATE MATERIALIZED TABLE"), 202);

        denied(BOB, "DESCRIBE MATERIALIZED TABLE " + db + ".by_ds");
        denied(BOB, "GRANT SELECT ON " + db + ".by_ds TO USER 'bob'");
        expect(ALICE, "GRANT SELECT ON " + db + ".by_ds TO USER 'bob'", 202);

        assertThat(tables(BOB)).containsExactly(table("by_ds"));
        assertThat(property(BOB, "owner")).isEqualTo("user:alice");
        assertThat(
                        rows(
                                BOB,
                                "SELECT table_name FROM information_schema.materialized_tables"
                                        + " WHERE table_name LIKE 'default_catalog."
                                        + db
                                        + ".%'"))
                .containsExactly(List.of(table("by_ds")));
        denied(BOB, "ALTER MATERIALIZED TABLE " + db + ".by_ds SUSPEND");
        denied(BOB, "DROP MATERIALIZED TABLE " + db + ".by_ds");
        assertThat(rows(BOB, "SHOW GRANTS TO USER 'bob'"))
                .containsExactly(List.of("user:bob", "SELECT", "TABLE", table("by_ds")));

        // Dropped and created again: a new table, without the old one's grants.
        expect(ALICE, "DROP MATERIALIZED TABLE " + db + ".by_ds", 202);
        expect(ALICE, byDs("CREATE MATERIALIZED TABLE"), 202);
        denied(BOB, "DESCRIBE MATERIALIZED TABLE " + db + ".by_ds");
        assertThat(tables(BOB)).isEmpty();
    }

    @Test
    void rolesAndGrantsAreAnAdminsAndEveryWrongOneIsRefusedSayingWhy() {
        Response unknownRole = post(ADMIN, "GRANT ROLE nobody_" + role + " TO USER 'alice'");
        assertThat(unknownRole.statusCode()).as(unknownRole.asString()).isEqualTo(404);
        assertThat(unknownRole.jsonPath().getString("title")).isEqualTo("RoleNotFound");

        Response again = post(ADMIN, "CREATE ROLE " + role);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.jsonPath().getString("title")).isEqualTo("RoleAlreadyExists");

        Response createOnTable =
                post(ADMIN, "GRANT CREATE ON TABLE " + db + ".orders TO ROLE " + role);
        assertThat(createOnTable.statusCode()).isEqualTo(400);
        assertThat(createOnTable.jsonPath().getString("detail")).contains("privilege on a schema");

        String typo = "GRANT SELEKT ON SCHEMA " + db + " TO USER 'alice'";
        Response bad = post(ADMIN, typo);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.jsonPath().getInt("column")).isEqualTo(typo.indexOf("SELEKT") + 1);
        assertThat(bad.jsonPath().getString("detail")).contains("Expected a privilege");
        assertThat(bad.jsonPath().getString("allowed")).contains("SHOW GRANTS");

        assertThat(rows(ADMIN, "SHOW ROLES")).contains(List.of(role));
        expect(ADMIN, "GRANT ROLE " + role + " TO SERVICE ACCOUNT etl", 202);
        assertThat(rows(ADMIN, "SHOW ROLES")).contains(List.of(role, "service-account:etl"));
        expect(ADMIN, "DROP ROLE " + role, 202);
        assertThat(rows(ADMIN, "SHOW ROLES")).doesNotContain(List.of(role));
        expect(ADMIN, "DROP ROLE IF EXISTS " + role, 202);
    }

    /**
     * CREATE on a schema lets a user declare sources that generate rows, not read any change stream
     * of the cluster: a source over a Kafka topic needs SELECT on it, granted by an admin on the
     * topic or on a prefix of topics.
     */
    @Test
    void aSourceOverATopicNeedsSelectOnTheTopicGrantedByAnAdmin() {
        expect(ADMIN, "GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'", 202);
        String topic = "cdc." + db + ".orders";
        String source =
                "CREATE TABLE "
                        + db
                        + ".orders_cdc (id BIGINT, ds STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('connector' = 'kafka', 'topic' = '"
                        + topic
                        + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')";

        Response refused = denied(ALICE, source);
        assertThat(refused.jsonPath().getString("detail"))
                .contains("may not read topic '" + topic + "' in a source table");
        assertThat(refused.jsonPath().getString("allowed")).contains("SELECT on TOPIC");
        denied(ALICE, "GRANT SELECT ON TOPIC '" + topic + "' TO USER 'alice'");
        Response onlySelect = post(ADMIN, "GRANT ALTER ON TOPIC '" + topic + "' TO USER 'alice'");
        assertThat(onlySelect.statusCode()).as(onlySelect.asString()).isEqualTo(400);
        assertThat(onlySelect.jsonPath().getString("detail")).contains("SELECT only");
        Response system = post(ADMIN, "GRANT SELECT ON TOPIC 'mt.ddl.commands' TO USER 'alice'");
        assertThat(system.statusCode()).as(system.asString()).isEqualTo(400);
        assertThat(tables(ALICE)).doesNotContain(table("orders_cdc"));

        expect(ADMIN, "GRANT SELECT ON TOPIC 'cdc." + db + ".*' TO ROLE " + role, 202);
        expect(ADMIN, "GRANT ROLE " + role + " TO USER 'alice'", 202);
        assertThat(rows(ADMIN, "SHOW GRANTS ON TOPIC '" + topic + "'"))
                .containsExactly(List.of("role:" + role, "SELECT", "TOPIC", "cdc." + db + ".*"));
        expect(ALICE, source, 202);
        assertThat(tables(ALICE)).contains(table("orders_cdc"));

        expect(ADMIN, "REVOKE SELECT ON TOPIC 'cdc." + db + ".*' FROM ROLE " + role, 202);
        denied(ALICE, source.replace("orders_cdc", "orders_again"));
    }

    @Test
    void theNextInstanceKnowsEveryRoleGrantAndOwner() {
        expect(ADMIN, "GRANT CREATE ON SCHEMA " + db + " TO USER 'alice'", 202);
        expect(ADMIN, "GRANT SELECT ON TABLE " + db + ".orders TO ROLE " + role, 202);
        expect(ADMIN, "GRANT ROLE " + role + " TO USER 'alice'", 202);
        expect(ALICE, byDs("CREATE MATERIALIZED TABLE"), 202);
        expect(ALICE, "GRANT SELECT ON " + db + ".by_ds TO USER 'bob'", 202);
        expect(ALICE, "REVOKE SELECT ON " + db + ".by_ds FROM USER 'bob'", 202);

        DdlRuntime next = new DdlRuntime();
        next.start(
                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                "ddl-service",
                PlannerSettings.defaults(),
                config,
                Clock.systemUTC(),
                new PlanProjection());
        await().atMost(Duration.ofSeconds(60)).until(next::ready);

        StatementResult alice =
                execute(next, "DESCRIBE MATERIALIZED TABLE " + db + ".by_ds", "user:alice");
        StatementResult bob =
                execute(next, "DESCRIBE MATERIALIZED TABLE " + db + ".by_ds", "user:bob");
        StatementResult aliceAgain =
                execute(
                        next,
                        byDs("CREATE MATERIALIZED TABLE").replace("by_ds", "again"),
                        "user:alice");
        assertThat(alice.status())
                .as(String.valueOf(alice.error()))
                .isEqualTo(StatementResult.Status.SUCCEEDED);
        assertThat(alice.rows()).contains(List.of("owner", "user:alice"));
        assertThat(bob.error().reason()).isEqualTo("PermissionDenied");
        assertThat(aliceAgain.status())
                .as(String.valueOf(aliceAgain.error()))
                .isEqualTo(StatementResult.Status.SUCCEEDED);
    }

    private static StatementResult execute(DdlRuntime runtime, String statement, String principal) {
        return runtime.withService(s -> s.execute("q-" + UUID.randomUUID(), statement, principal));
    }

    /** CREATE ... MATERIALIZED TABLE db.by_ds over db.orders. */
    private String byDs(String create) {
        return create
                + " "
                + db
                + ".by_ds AS SELECT ds, count(*) AS n FROM "
                + db
                + ".orders GROUP BY ds";
    }

    private String table(String name) {
        return "default_catalog." + db + "." + name;
    }

    private List<String> tables(String caller) {
        return rows(caller, "SHOW TABLES FROM " + db).stream().map(row -> row.get(0)).toList();
    }

    /** by_ds's DESCRIBE MATERIALIZED TABLE property. */
    private String property(String caller, String name) {
        return rows(caller, "DESCRIBE MATERIALIZED TABLE " + db + ".by_ds").stream()
                .filter(row -> row.get(0).equals(name))
                .map(row -> row.get(1))
                .findFirst()
                .orElseThrow();
    }

    /** The rows of a query, each cut to its first four columns (no times). */
    private static List<List<String>> rows(String caller, String statement) {
        Response response = post(caller, statement);
        assertThat(response.statusCode()).as(statement + ": " + response.asString()).isEqualTo(200);
        return response.jsonPath().<List<Object>>getList("rows").stream()
                .map(
                        row ->
                                ((List<?>) row)
                                        .stream()
                                                .limit(4)
                                                .map(v -> v == null ? null : String.valueOf(v))
                                                .filter(v -> v != null)
                                                .toList())
                .toList();
    }

    private static void expect(String caller, String statement, int status) {
        Response response = post(caller, statement);
        assertThat(response.statusCode())
                .as(statement + ": " + response.asString())
                .isEqualTo(status);
    }

    private static Response denied(String caller, String statement) {
        Response response = post(caller, statement);
        assertThat(response.statusCode()).as(statement + ": " + response.asString()).isEqualTo(403);
        assertThat(response.jsonPath().getString("title")).isEqualTo("PermissionDenied");
        assertThat(response.jsonPath().getString("detail")).contains("Nothing was");
        assertThat(response.jsonPath().getString("allowed")).isNotBlank();
        return response;
    }

    private static Response post(String caller, String statement) {
        return given().header("Authorization", caller)
                .contentType(ContentType.JSON)
                .body(Map.of("statement", statement))
                .post("/api/v1/statements");
    }
}
