package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * SELECT over a materialized table reads its latest Paimon snapshot, with WHERE, ORDER BY, LIMIT
 * and aggregates.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SelectIT {

    /** Per instance: a subclass runs the same test in the same JVM against another warehouse. */
    private final String db = "select_" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void selectReadsTheLatestSnapshot() throws Exception {
        DialectIT.awaitReady();
        post(
                "CREATE TABLE "
                        + db
                        + ".visits (id BIGINT, ds STRING) WITH ('connector' = 'datagen')",
                202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + db
                        + ".daily FRESHNESS = INTERVAL '1' HOUR AS SELECT ds, COUNT(*) AS n FROM "
                        + db
                        + ".visits GROUP BY ds",
                202);
        post("SELECT * FROM " + db + ".daily", 200).then().body("rows", hasSize(0));

        writeAsTheJobManagerWould(
                db, "daily", Map.of("2026-11-27", 3L, "2026-11-28", 5L, "2026-11-29", 7L));

        post("SELECT ds, n FROM " + db + ".daily WHERE n > 4 ORDER BY ds DESC LIMIT 1", 200)
                .then()
                .body("columns.name", contains("ds", "n"))
                .body("rows", hasSize(1))
                .body("rows[0][0]", equalTo("2026-11-29"))
                .body("rows[0][1]", equalTo(7));
        post(
                "SELECT SUM(n) AS total FROM daily",
                404); // unqualified: default_database, where it does not exist
        post("SELECT SUM(n) AS total FROM default_catalog." + db + ".daily", 200)
                .then()
                .body("rows[0][0]", equalTo(15));

        // What is applied while reading (docs/ddl.md) answers as the whole query would.
        String daily = db + ".daily";
        post("SELECT ds FROM " + daily + " WHERE n = 5", 200)
                .then()
                .body("rows", contains(List.of("2026-11-28")));
        post("SELECT ds, n FROM " + daily + " WHERE n >= 5 AND ds <> '2026-11-29' LIMIT 5", 200)
                .then()
                .body("rows", contains(List.of("2026-11-28", 5)));
        post("SELECT ds FROM " + daily + " d WHERE d.n > 3 LIMIT 1", 200)
                .then()
                .body("rows", hasSize(1));
        post("SELECT ds FROM " + daily + " WHERE n > 0 LIMIT 2 OFFSET 2", 200)
                .then()
                .body("rows", hasSize(1));
        post(
                        "SELECT n FROM "
                                + daily
                                + " WHERE n = 5 GROUP BY n HAVING COUNT(*) >= (SELECT COUNT(*)"
                                + " FROM "
                                + daily
                                + ")",
                        200)
                .then()
                .body("rows", hasSize(0));
        post("SELECT * FROM " + daily + " AS d(x, y) WHERE y = 3", 200)
                .then()
                .body("rows", contains(List.of("2026-11-27", 3)));
    }

    @Test
    void aSelectOfATablesRowsIsReadPageByPage() throws Exception {
        DialectIT.awaitReady();
        post("CREATE TABLE " + db + ".hits (ds STRING) WITH ('connector' = 'datagen')", 202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + db
                        + ".per_day FRESHNESS = INTERVAL '1' HOUR AS SELECT ds, COUNT(*) AS n FROM "
                        + db
                        + ".hits GROUP BY ds",
                202);
        Map<String, Long> rows = new java.util.TreeMap<>();
        for (int day = 1; day <= 7; day++) {
            rows.put("2026-11-0" + day, (long) day);
        }
        writeAsTheJobManagerWould(db, "per_day", rows);
        String select = "SELECT ds, n AS hits FROM " + db + ".per_day WHERE n >= 2";

        // Pages of three, each asked with the last one's token: every row once.
        List<Object> read = new java.util.ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            Map<String, Object> body = new java.util.HashMap<>();
            body.put("statement", select);
            body.put("pageSize", 3);
            if (token != null) {
                body.put("pageToken", token);
            }
            var page = page(body, 200);
            page.then().body("columns.name", contains("ds", "hits"));
            read.addAll(page.jsonPath().getList("rows"));
            token = page.jsonPath().getString("nextPageToken");
            pages++;
        } while (token != null && pages < 10);
        assertThat(pages).isEqualTo(2);
        assertThat(read)
                .containsExactlyInAnyOrder(
                        rows.entrySet().stream()
                                .filter(row -> row.getValue() >= 2)
                                .map(row -> List.of(row.getKey(), row.getValue().intValue()))
                                .toArray());

        // A token with another statement, a page size out of range: refused, with what is allowed.
        var first = page(Map.of("statement", select, "pageSize", 3), 200);
        page(
                        Map.of(
                                "statement",
                                select + " LIMIT 4",
                                "pageSize",
                                3,
                                "pageToken",
                                first.jsonPath().getString("nextPageToken")),
                        400)
                .then()
                .body("title", equalTo("InvalidPageToken"));
        page(Map.of("statement", select, "pageSize", 0), 400)
                .then()
                .body("title", equalTo("InvalidPageSize"));
        // An answer the query engine makes (ORDER BY) comes whole, with no token.
        page(Map.of("statement", select + " ORDER BY ds", "pageSize", 3), 200)
                .then()
                .body("rows", hasSize(6))
                .body("nextPageToken", nullValue());
    }

    private static io.restassured.response.Response page(Map<String, Object> body, int status) {
        var response =
                StatementRequests.caller()
                        .contentType(io.restassured.http.ContentType.JSON)
                        .body(body)
                        .post("/api/v1/statements");
        response.then().statusCode(status);
        return response;
    }

    static void writeAsTheJobManagerWould(String db, String table, Map<String, Long> rows)
            throws Exception {
        // The warehouse ddl-service reads, by its own configuration (a local path or an object
        // store).
        var warehouse = WarehouseReader.configured(ConfigProvider.getConfig());
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            catalog.createDatabase(db, true);
            Identifier id = Identifier.create(db, table);
            catalog.createTable(
                    id,
                    Schema.newBuilder()
                            .column("ds", DataTypes.STRING().notNull())
                            .column("n", DataTypes.BIGINT().notNull())
                            .primaryKey("ds")
                            .option("bucket", "1")
                            .build(),
                    false);
            BatchWriteBuilder builder = catalog.getTable(id).newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite();
                    BatchTableCommit commit = builder.newCommit()) {
                for (var row : rows.entrySet()) {
                    write.write(
                            GenericRow.of(BinaryString.fromString(row.getKey()), row.getValue()));
                }
                commit.commit(write.prepareCommit());
            }
        }
    }
}
