package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.InMemorySql;
import io.mtables.ddl.infra.PlainScan;
import io.mtables.ddl.infra.PushedDown;
import io.mtables.ddl.infra.ReadLimits;
import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.infra.TableQueries;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.planning.FlinkSyntax;
import io.mtables.planning.Warehouse;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SELECT that only picks columns of one table's rows streams from Paimon's read (a cursor): it
 * answers exactly as the in-process query over the whole snapshot does, and its pages, each opened
 * afresh from the previous page's token, add up to the same rows.
 */
class StreamedReadsTest {

    private static final String TABLE = "default_catalog.shop.items";
    private static final List<String> COLUMNS =
            List.of("id", "big", "small", "price", "ratio", "ds", "ts", "ok", "name");
    private static final int ROWS = 240;

    @TempDir Path dir;
    private Warehouse warehouse;

    @BeforeEach
    void fill() throws Exception {
        warehouse = Warehouse.at(dir.toUri().toString());
        try (Catalog catalog = catalog()) {
            catalog.createDatabase("shop", true);
            create(catalog, 0);
        }
    }

    @Test
    void aStreamedReadAnswersAsTheQueryOverTheWholeSnapshot() throws Exception {
        WarehouseReader reader =
                new WarehouseReader(warehouse, new ReadLimits(1_000_000, Long.MAX_VALUE));
        for (String query :
                List.of(
                        "SELECT * FROM shop.items",
                        "SELECT name, id AS key FROM shop.items WHERE price >= 10.5 AND ok = TRUE",
                        "SELECT i.ds, i.ts, i.ratio FROM shop.items i WHERE i.id <> 7",
                        "SELECT * FROM shop.items WHERE name = 'n-3'",
                        "SELECT big, small FROM shop.items WHERE small IS NULL",
                        "SELECT items.* FROM shop.items WHERE ds >= DATE '2026-01-10' LIMIT 3",
                        "SELECT * FROM shop.items WHERE id > 5 LIMIT 13 OFFSET 5",
                        "SELECT id FROM shop.items LIMIT 0")) {
            PlainScan scan = plainScan(query);
            List<List<Object>> streamed = new ArrayList<>();
            List<String> columns;
            try (RowCursor cursor = reader.open(TABLE, 1, scan, ScanPosition.START).orElseThrow()) {
                columns = cursor.columns().stream().map(c -> c.name() + " " + c.type()).toList();
                for (List<Object> row = cursor.next(); row != null; row = cursor.next()) {
                    streamed.add(row);
                }
            }
            InMemorySql.QueryRows queried =
                    new TableQueries(4)
                            .query(
                                    query,
                                    reader.read(TABLE, 1, List.of(List.of("shop", "items")))
                                            .orElseThrow(),
                                    "SELECT",
                                    "",
                                    new ReadLimits(1_000_000, Long.MAX_VALUE));
            assertThat(columns)
                    .as(query)
                    .isEqualTo(
                            queried.columns().stream()
                                    .map(c -> c.name() + " " + c.type())
                                    .toList());
            if (query.contains("LIMIT")) {
                assertThat(streamed).as(query).hasSameSizeAs(queried.rows());
                assertThat(queried.rows()).as(query).containsAll(streamed);
            } else {
                assertThat(streamed).as(query).containsExactlyInAnyOrderElementsOf(queried.rows());
            }
            assertThat(streamed.isEmpty()).as(query).isEqualTo(query.endsWith("LIMIT 0"));
        }
    }

    @Test
    void pagesOpenedFromTheirTokensAddUpToTheWholeRead() throws Exception {
        WarehouseReader reader =
                new WarehouseReader(warehouse, new ReadLimits(1_000_000, Long.MAX_VALUE));
        for (String query :
                List.of(
                        "SELECT id, name FROM shop.items",
                        "SELECT id FROM shop.items WHERE ok = FALSE LIMIT 50 OFFSET 7")) {
            List<List<Object>> whole = pages(reader, query, Integer.MAX_VALUE);
            assertThat(whole).isNotEmpty();
            for (int size : new int[] {1, 7, 64}) {
                assertThat(pages(reader, query, size)).as(query + " by " + size).isEqualTo(whole);
            }
        }
        assertThat(pages(reader, "SELECT id FROM shop.items LIMIT 50 OFFSET 7", 10)).hasSize(50);
    }

    @Test
    void aPageOfATableReplacedSinceIsRefusedAndATokenOfAnotherStatementToo() throws Exception {
        WarehouseReader reader =
                new WarehouseReader(warehouse, new ReadLimits(1_000_000, Long.MAX_VALUE));
        String query = "SELECT id FROM shop.items";
        String token;
        try (RowCursor cursor = reader.open(TABLE, 1, plainScan(query), ScanPosition.START).get()) {
            cursor.next();
            token = PageTokens.of(cursor.position(), query);
        }
        assertThatThrownBy(() -> PageTokens.read(token, query + " WHERE id = 1"))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        e -> assertThat(e.reason()).isEqualTo(PageTokens.INVALID_PAGE_TOKEN));
        // The place in the snapshot changed by hand (a skip of a billion rows): not signed so.
        String text =
                new String(
                        java.util.Base64.getUrlDecoder().decode(token),
                        java.nio.charset.StandardCharsets.UTF_8);
        String[] parts = text.split(":");
        parts[5] = "1000000000";
        String forged =
                java.util.Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                String.join(":", parts)
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> PageTokens.read(forged, query))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        e -> assertThat(e.reason()).isEqualTo(PageTokens.INVALID_PAGE_TOKEN))
                .hasMessageContaining("did not give it");
        assertThatThrownBy(() -> PageTokens.read("bm90IGEgdG9rZW4", query))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        e -> assertThat(e.reason()).isEqualTo(PageTokens.INVALID_PAGE_TOKEN));
        try (Catalog catalog = catalog()) {
            catalog.dropTable(Identifier.create("shop", "items"), false);
            create(catalog, 1); // a query change's new table under the name
        }
        assertThatThrownBy(
                        () ->
                                reader.open(
                                        TABLE, 1, plainScan(query), PageTokens.read(token, query)))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        e -> assertThat(e.reason()).isEqualTo(WarehouseReader.PAGE_EXPIRED));
    }

    @Test
    void whatIsMoreThanPickingColumnsIsNoPlainScan() {
        for (String query :
                List.of(
                        "SELECT id + 1 FROM shop.items",
                        "SELECT DISTINCT id FROM shop.items",
                        "SELECT * FROM shop.items ORDER BY id",
                        "SELECT * FROM shop.items WHERE id = 1 OR id = 2",
                        "SELECT * FROM shop.items WHERE id IN (SELECT id FROM shop.items)",
                        "SELECT id, id FROM shop.items",
                        "SELECT COUNT(*) FROM shop.items",
                        "SELECT * FROM shop.items AS i(a, b, c, d, e, f, g, h, j)",
                        "SELECT * FROM shop.items, shop.items AS other",
                        "SELECT 1 AS c FROM shop.items")) {
            assertThat(ReadPushdowns.plainScan(parse(query), COLUMNS)).as(query).isEmpty();
        }
        PlainScan renamed = plainScan("SELECT i.name AS n, id FROM shop.items i LIMIT 4 OFFSET 2");
        assertThat(renamed.columns()).containsExactly("name", "id");
        assertThat(renamed.labels()).containsExactly("n", "id");
        assertThat(renamed.offset()).isEqualTo(2);
        assertThat(renamed.fetch()).isEqualTo(4);
        assertThat(renamed.pushed()).isEqualTo(new PushedDown(List.of(), true, 6));
    }

    /** {@code query}'s rows read page by page, each page opened from the last one's token. */
    private static List<List<Object>> pages(WarehouseReader reader, String query, int size) {
        List<List<Object>> rows = new ArrayList<>();
        ScanPosition from = ScanPosition.START;
        while (true) {
            try (RowCursor cursor = reader.open(TABLE, 1, plainScan(query), from).orElseThrow()) {
                for (int i = 0; i < size && cursor.hasNext(); i++) {
                    rows.add(cursor.next());
                }
                if (!cursor.hasNext()) {
                    return rows;
                }
                from = PageTokens.read(PageTokens.of(cursor.position(), query), query);
            }
        }
    }

    private static PlainScan plainScan(String query) {
        return ReadPushdowns.plainScan(parse(query), COLUMNS).orElseThrow();
    }

    private static SqlNode parse(String query) {
        try {
            return SqlParser.create(query, FlinkSyntax.PARSER).parseStmt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Three buckets (three splits), written in two commits: the second changes every fifth row, so
     * that reads merge files.
     */
    private void create(Catalog catalog, int salt) throws Exception {
        Identifier name = Identifier.create("shop", "items");
        catalog.createTable(
                name,
                Schema.newBuilder()
                        .column("id", DataTypes.INT().notNull())
                        .column("big", DataTypes.BIGINT())
                        .column("small", DataTypes.SMALLINT())
                        .column("price", DataTypes.DECIMAL(10, 2))
                        .column("ratio", DataTypes.DOUBLE())
                        .column("ds", DataTypes.DATE())
                        .column("ts", DataTypes.TIMESTAMP(3))
                        .column("ok", DataTypes.BOOLEAN())
                        .column("name", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "3")
                        .build(),
                false);
        BatchWriteBuilder builder = catalog.getTable(name).newBatchWriteBuilder();
        for (int commitNumber = 0; commitNumber < 2; commitNumber++) {
            try (BatchTableWrite write = builder.newWrite();
                    BatchTableCommit commit = builder.newCommit()) {
                for (int id = 0; id < ROWS; id += commitNumber == 0 ? 1 : 5) {
                    write.write(row(id, salt + commitNumber));
                }
                commit.commit(write.prepareCommit());
            }
        }
    }

    private static GenericRow row(int id, int version) {
        return GenericRow.of(
                id,
                id % 11 == 0 ? null : (long) id * 1_000_003L + version,
                id % 4 == 0 ? null : (short) (id % 100),
                Decimal.fromBigDecimal(
                        new BigDecimal(id + ".25").add(BigDecimal.valueOf(version)), 10, 2),
                id / 3.0,
                (int) java.time.LocalDate.parse("2026-01-01").toEpochDay() + id % 30,
                Timestamp.fromEpochMillis(1_767_225_600_123L + id * 61_000L),
                id % 3 == 0,
                BinaryString.fromString("n-" + id));
    }

    private Catalog catalog() {
        return CatalogFactory.createCatalog(
                CatalogContext.create(Options.fromMap(warehouse.catalogOptions())));
    }
}
