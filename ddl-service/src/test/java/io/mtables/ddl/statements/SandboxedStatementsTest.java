package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.SourceOptions;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableRefresh;
import org.apache.flink.sql.parser.ddl.SqlCreateMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlDropMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlDropTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statements keep to the sandbox without Quarkus or Kafka: options outside the allow-lists and
 * reserved names are refused before anything is decided, and the catalog stays as it was.
 */
class SandboxedStatementsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    private static final String TABLE = "default_catalog.sandbox.counts";
    private static final String CLUSTER = "127.0.0.1:9092";

    private static FlinkSql flink;
    private static Catalog catalog;
    private static SourceTableStatements sources;
    private static MaterializedTableStatements tables;

    @BeforeAll
    static void suspendedTableOverASource() {
        flink = new FlinkSql(Duration.ofMinutes(30));
        catalog = new Catalog();
        sources =
                new SourceTableStatements(
                        flink, catalog, new SourceOptions(List.of(CLUSTER, "127.0.0.1:9192")));
        tables = new MaterializedTableStatements(flink, catalog, table -> false, table -> false);
        accept(
                run(
                        "CREATE TABLE sandbox.orders (id BIGINT, ds STRING) WITH ('connector' ="
                                + " 'datagen')"));
        accept(
                run(
                        "CREATE MATERIALIZED TABLE sandbox.counts FRESHNESS = INTERVAL '1' MINUTE"
                                + " AS SELECT ds, count(*) AS n FROM sandbox.orders GROUP BY ds"));
        accept(run("ALTER MATERIALIZED TABLE sandbox.counts SUSPEND"));
    }

    @Test
    void resumeTakesAStateTtlOnlyAndARefusedResumeLeavesTheTableSuspended() {
        String statement =
                "ALTER MATERIALIZED TABLE sandbox.counts RESUME WITH ('pipeline.jars' ="
                        + " 'file:///tmp/x.jar')";

        var error = refusal(statement);
        var resumed =
                (Outcome.Defined)
                        run(
                                "ALTER MATERIALIZED TABLE sandbox.counts RESUME WITH"
                                        + " ('table.exec.state.ttl' = '1 d')");

        assertThat(error.reason()).isEqualTo("OptionNotAllowed");
        assertThat(error.message()).contains("'pipeline.jars'");
        assertThat(error.allowed()).contains("'table.exec.state.ttl'");
        assertThat(error.column()).isEqualTo(statement.indexOf("'pipeline.jars'") + 1);
        assertThat(current().status()).isEqualTo(Status.SUSPENDED);
        assertThat(resumed.definition().status()).isEqualTo(Status.ACTIVE);
        assertThat(resumed.definition().resumeOptions())
                .isEqualTo(Map.of("table.exec.state.ttl", "1 d"));
    }

    @Test
    void aTableTakesItsOwnOptionsOnlyAtCreateAndAtSet() {
        var created =
                refusal(
                        "CREATE MATERIALIZED TABLE sandbox.unkept WITH ('write-only' = 'true')"
                                + " FRESHNESS = INTERVAL '1' MINUTE AS SELECT ds, count(*) AS n"
                                + " FROM sandbox.orders GROUP BY ds");
        var set = refusal("ALTER MATERIALIZED TABLE sandbox.counts SET ('write-only' = 'true')");
        var altered =
                (Outcome.Defined)
                        run(
                                "ALTER MATERIALIZED TABLE sandbox.counts SET ('file.format' ="
                                        + " 'parquet')");

        assertThat(created.reason()).isEqualTo("OptionNotAllowed");
        assertThat(created.message()).contains("'write-only'");
        assertThat(set.reason()).isEqualTo("OptionNotAllowed");
        assertThat(catalog.find("default_catalog.sandbox.unkept")).isEmpty();
        assertThat(current().options()).isEmpty();
        assertThat(altered.definition().options()).isEqualTo(Map.of("file.format", "parquet"));
    }

    @Test
    void aQuerySetsNoTablesOptionsWithAHint() {
        String create =
                "CREATE MATERIALIZED TABLE sandbox.hinted FRESHNESS = INTERVAL '1' MINUTE AS SELECT"
                        + " ds, count(*) AS n FROM sandbox.orders /*+ OPTIONS('connector' ="
                        + " 'filesystem', 'path' = 'file:///etc') */ GROUP BY ds";
        String alter =
                "ALTER MATERIALIZED TABLE sandbox.counts AS SELECT ds, count(*) AS n FROM"
                        + " sandbox.orders /*+ OPTIONS('rows-per-second' = '100000000') */ GROUP BY"
                        + " ds";

        var created = refusal(create);
        var altered = refusal(alter);

        assertThat(created.reason()).isEqualTo("OptionNotAllowed");
        assertThat(created.message()).contains("/*+ OPTIONS(...) */");
        assertThat(created.column()).isEqualTo(create.indexOf("OPTIONS(") + 1);
        assertThat(altered.reason()).isEqualTo("OptionNotAllowed");
        assertThat(catalog.find("default_catalog.sandbox.hinted")).isEmpty();
        assertThat(current().query().original()).doesNotContain("OPTIONS");
    }

    @Test
    void noTableIsCreatedAlteredOrDroppedUnderAReservedName() {
        String[] statements = {
            "CREATE MATERIALIZED TABLE mt_system.refresh_history AS SELECT ds FROM sandbox.orders",
            "CREATE OR ALTER MATERIALIZED TABLE __mt_warm_up.t AS SELECT ds FROM sandbox.orders",
            "CREATE TABLE mt_system.events (a INT) WITH ('connector' = 'datagen')",
            "CREATE TABLE sandbox.__mt_one_row (a INT) WITH ('connector' = 'datagen')",
            "ALTER MATERIALIZED TABLE mt_system.refresh_history SUSPEND",
            "ALTER MATERIALIZED TABLE mt_system.refresh_history REFRESH",
            "DROP MATERIALIZED TABLE IF EXISTS mt_system.refresh_history",
            "DROP TABLE IF EXISTS mt_system.refresh_history"
        };
        for (String statement : statements) {
            var error = refusal(statement);

            assertThat(error.reason()).as(statement).isEqualTo("ReservedName");
            assertThat(error.message()).as(statement).contains("has a reserved name");
        }
        assertThat(catalog.find("default_catalog.mt_system.refresh_history")).isEmpty();
    }

    @Test
    void aSourceReadsOnlyTopicsOfTheConfiguredClusterOrGeneratedRows() {
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put(
                kafkaSource("'topic' = 'o'", "'properties.bootstrap.servers' = 'evil:9092'"),
                "InvalidOptionValue properties.bootstrap.servers");
        refused.put(
                kafkaSource(
                        "'topic' = 'o'",
                        "'properties.bootstrap.servers' = '" + CLUSTER + ",evil:9092'"),
                "InvalidOptionValue properties.bootstrap.servers");
        refused.put(
                kafkaSource("'topic' = 'mt.ddl.results'", bootstrap()), "InvalidOptionValue topic");
        refused.put(
                kafkaSource("'topic' = 'o;__consumer_offsets'", bootstrap()),
                "InvalidOptionValue topic");
        refused.put(
                kafkaSource("'topic' = '\"mt.ddl.access\"'", bootstrap()),
                "InvalidOptionValue topic");
        refused.put(
                kafkaSource("'topic' = 'o;\"__consumer_offsets\"'", bootstrap()),
                "InvalidOptionValue topic");
        refused.put(
                kafkaSource("'topic' = 'o', 'connector' = 'filesystem'", bootstrap()),
                "DuplicateOption connector");
        refused.put(
                kafkaSource("'topic-pattern' = '.*'", bootstrap()),
                "OptionNotAllowed topic-pattern");
        refused.put(
                kafkaSource("'topic' = 'o', 'properties.sasl.jaas.config' = 'x'", bootstrap()),
                "OptionNotAllowed properties.sasl.jaas.config");
        refused.put(
                kafkaSource("'topic' = 'o', 'properties.interceptor.classes' = 'a.B'", bootstrap()),
                "OptionNotAllowed properties.interceptor.classes");
        refused.put(
                kafkaSource(
                        "'topic' = 'o', 'properties.group.id' = 'planner-service'", bootstrap()),
                "OptionNotAllowed properties.group.id");
        refused.put(
                kafkaSource("'topic' = 'o', 'scan.parallelism' = '64'", bootstrap()),
                "OptionNotAllowed scan.parallelism");
        refused.put(
                kafkaSource("'topic' = 'o'", bootstrap())
                        .replace("'debezium-json'", "'avro-confluent'"),
                "InvalidOptionValue format");
        refused.put(
                "CREATE TABLE sandbox.files (id BIGINT) WITH ('connector' = 'filesystem',"
                        + " 'path' = 'file:///etc', 'format' = 'csv')",
                "InvalidOptionValue connector");
        refused.put(
                "CREATE TABLE sandbox.files (id BIGINT) WITH ('path' = 'file:///etc')",
                "MissingOption connector");
        refused.put(
                "CREATE TABLE sandbox.files (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'scan.parallelism' = '64')",
                "OptionNotAllowed scan.parallelism");

        for (var each : refused.entrySet()) {
            var error = refusal(each.getKey());
            String[] expected = each.getValue().split(" ");

            assertThat(error.reason()).as(each.getKey()).isEqualTo(expected[0]);
            assertThat(error.message()).as(each.getKey()).contains("Nothing was changed.");
            assertThat(error.allowed()).as(each.getKey()).isNotBlank();
            String key = "'" + expected[1] + "'";
            if (!error.reason().equals("MissingOption")) {
                assertThat(error.column())
                        .as(each.getKey())
                        .isEqualTo(
                                (error.reason().equals("DuplicateOption")
                                                ? each.getKey().lastIndexOf(key)
                                                : each.getKey().indexOf(key))
                                        + 1);
            }
        }
        assertThat(catalog.find("default_catalog.sandbox.visits")).isEmpty();
        assertThat(catalog.find("default_catalog.sandbox.files")).isEmpty();

        var accepted =
                (Outcome.Defined)
                        run(
                                kafkaSource(
                                        "'topic' = 'cdc.shop.visits', 'properties.isolation.level'"
                                            + " = 'read_committed', 'debezium-json.schema-include'"
                                            + " = 'false'",
                                        "'properties.bootstrap.servers' = '127.0.0.1:9192, "
                                                + CLUSTER
                                                + "'"));
        assertThat(accepted.definition().options()).containsEntry("topic", "cdc.shop.visits");
    }

    private static String kafkaSource(String topic, String bootstrap) {
        return "CREATE TABLE sandbox.visits (id BIGINT, page STRING) WITH ('connector' = 'kafka',"
                + " "
                + topic
                + ", 'format' = 'debezium-json', "
                + bootstrap
                + ", 'scan.startup.mode' = 'earliest-offset')";
    }

    private static String bootstrap() {
        return "'properties.bootstrap.servers' = '" + CLUSTER + "'";
    }

    private static TableDefinition current() {
        return catalog.find(TABLE).orElseThrow();
    }

    private static io.mtables.schemas.ddl.StatementError refusal(String statement) {
        StatementException e = catchThrowableOfType(() -> run(statement), StatementException.class);
        assertThat(e).as("refused: %s", statement).isNotNull();
        return e.toError();
    }

    /** As the router sends it, without writing anything. */
    private static Outcome run(String statement) {
        ParsedStatement parsed = flink.parse(statement);
        var node = parsed.node();
        if (node instanceof SqlCreateMaterializedTable) {
            return tables.create(parsed, "r", NOW);
        }
        if (node instanceof SqlAlterMaterializedTableRefresh refresh) {
            return tables.refresh(refresh, "r", NOW);
        }
        if (node instanceof SqlAlterMaterializedTable alter) {
            return tables.alter(parsed, alter, "r", NOW);
        }
        if (node instanceof SqlDropMaterializedTable drop) {
            return tables.drop(drop, "r", NOW);
        }
        if (node instanceof SqlCreateTable create) {
            return sources.create(parsed, create, "r", NOW);
        }
        if (node instanceof SqlDropTable drop) {
            return sources.drop(drop, "r", NOW);
        }
        throw new IllegalArgumentException(statement);
    }

    /** As the service applies a change once its definition is written. */
    private static void accept(Outcome outcome) {
        var defined = (Outcome.Defined) outcome;
        catalog.apply(defined.definition());
        defined.onCommitted().run();
    }
}
