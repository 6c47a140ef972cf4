package io.mtables.ddl.pgcatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The queries psql 15 and pgJDBC 42.7 send about the catalog, as captured from PostgreSQL 15,
 * answered over two tables as PostgreSQL answers them over the same tables.
 */
class PgCatalogTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final PgCatalog catalog = new PgCatalog();
    private final List<TableDefinition> tables =
            List.of(
                    table(
                            "default_catalog.shop.orders",
                            TableDefinition.Kind.SOURCE_TABLE,
                            List.of(
                                    new Column("id", "BIGINT NOT NULL", false),
                                    new Column("amount", "DECIMAL(10, 2)", true),
                                    new Column("note", "STRING", true),
                                    new Column("Placed At", "TIMESTAMP(3)", true)),
                            List.of("id"),
                            null),
                    table(
                            "default_catalog.shop.revenue",
                            TableDefinition.Kind.MATERIALIZED_TABLE,
                            List.of(
                                    new Column("day", "DATE NOT NULL", false),
                                    new Column("total", "DECIMAL(38, 2)", true)),
                            List.of("day"),
                            "revenue per day"));

    @Test
    void psqlListsDatabasesSchemasAndTables() {
        List<String> queries = queries("psql15.sql");
        assertThat(rows(queries.get(0)))
                .extracting(row -> row.get(0))
                .containsExactly("default_catalog");
        assertThat(rows(queries.get(1))).extracting(row -> row.get(0)).containsExactly("shop");
        assertThat(rows(queries.get(2)))
                .containsExactly(
                        List.of("shop", "orders", "table", "mtables"),
                        List.of("shop", "revenue", "table", "mtables"));
    }

    @Test
    void psqlDescribesATableWithItsColumnsAndPrimaryKey() {
        List<String> describe = queries("psql15.sql").subList(3, 14);
        List<List<Object>> found = rows(describe.get(0).replace("${name}", "orders"));
        assertThat(found).hasSize(1);
        String oid = found.get(0).get(0).toString();
        assertThat(found.get(0).subList(1, 3)).containsExactly("shop", "orders");

        for (String query : describe.subList(1, describe.size())) {
            String text = query.replace("${oid}", oid).replace("${name}", "orders");
            List<List<Object>> answer = rows(text);
            if (text.contains("pg_catalog.format_type(a.atttypid, a.atttypmod)")) {
                assertThat(answer)
                        .extracting(row -> List.of(row.get(0), row.get(1), row.get(3)))
                        .containsExactly(
                                List.of("id", "bigint", true),
                                List.of("amount", "numeric(10,2)", false),
                                List.of("note", "text", false),
                                List.of("Placed At", "timestamp(3) without time zone", false));
            } else if (text.contains("pg_catalog.pg_get_indexdef(i.indexrelid, 0, true)")) {
                assertThat(answer).hasSize(1);
                assertThat(answer.get(0).subList(0, 3)).containsExactly("orders_pkey", true, true);
                assertThat(answer.get(0).get(5))
                        .isEqualTo(
                                "CREATE UNIQUE INDEX orders_pkey ON shop.orders USING btree (id)");
                assertThat(answer.get(0).get(6)).isEqualTo("PRIMARY KEY (id)");
            } else if (text.startsWith("SELECT c.relchecks")) {
                assertThat(answer).hasSize(1);
                assertThat(answer.get(0).get(1)).isEqualTo("r");
                // The access method says where the rows are: here, the source's connector.
                assertThat(answer.get(0).get(answer.get(0).size() - 1)).isEqualTo("datagen");
            } else {
                assertThat(answer).as(text).isEmpty(); // policies, statistics, publications, ...
            }
        }
    }

    @Test
    void pgJdbcReadsSchemasTablesColumnsAndPrimaryKeys() {
        List<String> queries = queries("pgjdbc42.sql");
        assertThat(rows(queries.get(0)))
                .extracting(row -> row.get(0))
                .containsExactly("information_schema", "pg_catalog", "shop");
        List<List<Object>> found = rows(queries.get(1));
        assertThat(found).hasSize(1);
        assertThat(found.get(0).subList(0, 4))
                .containsExactly("default_catalog", "shop", "orders", "TABLE");
        assertThat(rows(queries.get(2)))
                .extracting(row -> Arrays.asList(row.get(3), row.get(4), row.get(6), row.get(9)))
                .containsExactly(
                        Arrays.asList("id", 20, -1, 1L),
                        Arrays.asList("amount", 1700, (10 << 16 | 2) + 4, 2L),
                        Arrays.asList("note", 25, -1, 3L),
                        Arrays.asList("Placed At", 1114, 3, 4L));
        assertThat(rows(queries.get(3)))
                .containsExactly(
                        List.of("default_catalog", "shop", "orders", "id", 1, "orders_pkey"));
        assertThat(rows(queries.get(4)))
                .filteredOn(row -> "TABLE".equals(row.get(3)))
                .extracting(row -> row.get(2) + " " + row.get(4))
                .containsExactly("orders null", "revenue revenue per day");
        assertThat(rows(queries.get(5))).containsExactly(List.of("default_catalog"));
    }

    @Test
    void informationSchemaListsSchemasTablesColumnsAndKeysAsPostgresDoes() {
        assertThat(rows("SELECT schema_name FROM information_schema.schemata ORDER BY 1"))
                .extracting(row -> row.get(0))
                .containsExactly("information_schema", "pg_catalog", "shop");
        assertThat(
                        rows(
                                "SELECT table_schema, table_name, table_type FROM"
                                        + " information_schema.tables WHERE table_schema = 'shop'"
                                        + " ORDER BY table_name"))
                .containsExactly(
                        List.of("shop", "orders", "BASE TABLE"),
                        List.of("shop", "revenue", "BASE TABLE"));
        assertThat(
                        rows(
                                "SELECT column_name, data_type, is_nullable, numeric_precision,"
                                        + " numeric_scale, datetime_precision, udt_name FROM"
                                        + " information_schema.columns WHERE table_name ="
                                        + " 'orders' ORDER BY ordinal_position"))
                .containsExactly(
                        Arrays.asList("id", "bigint", "NO", 64, 0, null, "int8"),
                        Arrays.asList("amount", "numeric", "YES", 10, 2, null, "numeric"),
                        Arrays.asList("note", "text", "YES", null, null, null, "text"),
                        Arrays.asList(
                                "Placed At",
                                "timestamp without time zone",
                                "YES",
                                null,
                                null,
                                3,
                                "timestamp"));
        assertThat(
                        rows(
                                "SELECT tc.constraint_type, k.column_name, k.ordinal_position"
                                        + " FROM information_schema.table_constraints tc JOIN"
                                        + " information_schema.key_column_usage k ON"
                                        + " k.constraint_name = tc.constraint_name WHERE"
                                        + " tc.table_name = 'revenue'"))
                .containsExactly(List.of("PRIMARY KEY", "day", 1));
    }

    @Test
    void aCallerSeesOnlyTheTablesItIsGiven() {
        String tablesQuery = queries("psql15.sql").get(2);
        assertThat(rows(tablesQuery)).hasSize(2);
        assertThat(catalog.query(tablesQuery, tables.subList(1, 2), 100, TIMEOUT).rows())
                .extracting(row -> row.get(1))
                .containsExactly("revenue");
    }

    @Test
    void aQueryTheEmulationCannotAnswerIsRefusedSayingWhatItAnswers() {
        assertThatThrownBy(() -> rows("SELECT nothing FROM pg_catalog.pg_class"))
                .isInstanceOf(StatementException.class)
                .hasMessageContaining("emulated in part")
                .hasMessageContaining("nothing")
                .extracting(e -> ((StatementException) e).reason())
                .isEqualTo(PgCatalog.UNSUPPORTED);
        // The emulation still answers after a failure.
        assertThat(rows(queries("psql15.sql").get(1))).hasSize(1);
    }

    @Test
    void aQueryCannotReachBeyondTheCatalog() {
        for (String query :
                List.of(
                        "SELECT FILE_READ('/etc/hostname') FROM pg_catalog.pg_class",
                        "SELECT * FROM pg_catalog.pg_class WHERE 1 = (SELECT COUNT(*) FROM"
                                + " CSVREAD('/etc/hostname'))",
                        "SELECT 1 FROM pg_catalog.pg_class; CREATE ALIAS getenv FOR"
                                + " 'java.lang.System.getenv'",
                        "SELECT 1 FROM pg_catalog.pg_class; CALL FILE_WRITE('x',"
                                + " '/tmp/mt-pgcatalog')",
                        "SELECT 1 FROM pg_catalog.pg_class; DELETE FROM pg_catalog.pg_class",
                        "SELECT 1 FROM pg_catalog.pg_class; SET MODE Regular",
                        // Needs no rights, and would change the session every caller shares.
                        "SELECT 1 FROM pg_catalog.pg_class; SET SCHEMA_SEARCH_PATH public",
                        "SELECT 1 FROM pg_catalog.pg_class /* ; */; SET @a = 1;",
                        // Bytes of the caller's choosing, deserialized by H2 if it could.
                        "SELECT CAST(X'ACED0005737200' AS JAVA_OBJECT) FROM pg_catalog.pg_class")) {
            assertThatThrownBy(() -> rows(query))
                    .as(query)
                    .isInstanceOf(StatementException.class)
                    .hasMessageMatching(
                            "(?s).*(Admin rights|Not enough rights|one statement|Java object"
                                    + "|JAVA_OBJECT|serializ).*");
        }
        // One statement, a trailing ';' and ';' inside literals, identifiers and comments.
        assertThat(
                        rows(
                                "SELECT relname AS \"a;b\" FROM pg_catalog.pg_class WHERE relname"
                                        + " <> ';' -- ;\n;"))
                .isNotEmpty();
        assertThat(Path.of("/tmp/mt-pgcatalog")).doesNotExist();
        assertThat(rows("SELECT COUNT(*) FROM pg_catalog.pg_class")).isNotEmpty();
        assertThat(rows(queries("psql15.sql").get(2))).hasSize(2);
    }

    @Test
    void recognizesCatalogQueriesOnlyOutsideStringLiterals() {
        assertThat(PgCatalog.isQueryOver("SELECT relname FROM pg_catalog.pg_class")).isTrue();
        assertThat(PgCatalog.isQueryOver("select * from pg_namespace")).isTrue();
        assertThat(PgCatalog.isQueryOver("SELECT * FROM shop.revenue WHERE note = 'pg_class'"))
                .isFalse();
        assertThat(PgCatalog.isQueryOver("DROP TABLE pg_catalog.pg_class")).isFalse();
        assertThat(PgCatalog.isQueryOver("SELECT * FROM information_schema.columns")).isTrue();
        assertThat(PgCatalog.isQueryOver("SELECT * FROM information_schema.materialized_tables"))
                .isFalse();
    }

    @Test
    void rewritesPostgresSpellingsH2DoesNotParse() {
        assertThat(
                        PgCatalogSql.toH2(
                                "SELECT 1 WHERE c.relname OPERATOR(pg_catalog.~) '^(a)$' COLLATE"
                                        + " pg_catalog.default",
                                Set.of()))
                .isEqualTo("SELECT 1 WHERE c.relname  ~  '^(a)$'");
        assertThat(
                        PgCatalogSql.toH2(
                                "SELECT 'pg_class'::regclass, E'it\\'s', 'pg_catalog.x',"
                                        + " pg_catalog.unnest(a), pg_catalog.pg_class.oid",
                                Set.of("pg_catalog.pg_class")))
                .isEqualTo(
                        "SELECT mtpg.regclass_of('pg_class'), 'it''s', 'pg_catalog.x', unnest(a),"
                                + " mtpg.pg_class.oid");
    }

    @Test
    void rewritesWhatPostgresWritesAndLeavesTheRestAlone() {
        assertThat(
                        PgCatalogSql.toH2(
                                "SELECT 1 AS \"it's\" FROM pg_catalog.pg_class",
                                Set.of("pg_catalog.pg_class")))
                .isEqualTo("SELECT 1 AS \"it's\" FROM mtpg.pg_class");
        assertThat(
                        PgCatalogSql.toH2(
                                "SELECT n FROM generate_series(1, 3) AS gs(n), generate_series(1,"
                                        + " 2) s WHERE s = 1",
                                Set.of()))
                .isEqualTo(
                        "SELECT n FROM generate_series(1, 3) AS gs(n), generate_series(1, 2) s(s)"
                                + " WHERE s = 1");
        assertThat(PgCatalogSql.toH2("SELECT * FROM generate_series(1, 3) WHERE 1 = 1", Set.of()))
                .isEqualTo("SELECT * FROM generate_series(1, 3) WHERE 1 = 1");
        assertThat(PgCatalogSql.toH2("SELECT E'\\x41\\101\\u0041\\n', $$it's$$", Set.of()))
                .isEqualTo("SELECT 'AAA\n', 'it''s'");
        assertThat(PgCatalogSql.toH2("SELECT 1 WHERE a = '{0}' OR b LIKE '{1}'", Set.of()))
                .isEqualTo("SELECT 1 WHERE a = ARRAY[0] OR b LIKE '{1}'");
    }

    private List<List<Object>> rows(String query) {
        return catalog.query(query, tables, 1000, TIMEOUT).rows();
    }

    private static List<String> queries(String resource) {
        try (InputStream in = PgCatalogTest.class.getResourceAsStream("/pgcatalog/" + resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<String> queries = new ArrayList<>();
            for (String part : text.split("-- query\n")) {
                if (!part.startsWith("--") && !part.isBlank()) {
                    queries.add(
                            part.trim().replace("${schema}", "shop").replace("${name}", "orders"));
                }
            }
            return queries;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TableDefinition table(
            String name,
            TableDefinition.Kind kind,
            List<Column> columns,
            List<String> key,
            String comment) {
        return TableDefinitionBuilder.builder()
                .table(name)
                .version(1)
                .kind(kind)
                .statement("CREATE ...")
                .columns(columns)
                .primaryKey(key)
                .partitionKeys(List.of())
                .distribution(null)
                .options(
                        kind == TableDefinition.Kind.SOURCE_TABLE
                                ? Map.of("connector", "datagen")
                                : Map.of())
                .comment(comment)
                .freshness(null)
                .refreshMode(
                        kind == TableDefinition.Kind.MATERIALIZED_TABLE
                                ? TableDefinition.RefreshMode.AUTO
                                : null)
                .query(null)
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(null)
                .createdAt(CREATED)
                .updatedAt(CREATED)
                .requestId("r0")
                .build();
    }
}
