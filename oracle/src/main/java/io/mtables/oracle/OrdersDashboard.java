package io.mtables.oracle;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seed 000's three-tier dashboard over one orders table: a CONTINUOUS table by category at 1
 * minute; an ODS table (CONTINUOUS, 10 seconds) that FULL refreshes can read, since a change stream
 * cannot be read as a batch; a FULL table by day and category at 1 hour and a FULL table by day at
 * 1 day, both partitioned by day, each scheduled refresh overwriting the day it ends.
 */
final class OrdersDashboard implements Example {

    private static final String[] CATEGORY = {"books", "games", "music", "tools", "toys"};

    @Override
    public String name() {
        return "orders-dashboard";
    }

    @Override
    public List<String> postgresTables(String schema) {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".orders (id BIGINT PRIMARY KEY, category TEXT NOT NULL, amount"
                        + " NUMERIC(10, 2) NOT NULL, order_ts TIMESTAMP(3) NOT NULL)");
    }

    @Override
    public List<String> sampleRows(String schema) {
        return List.of(
                "INSERT INTO "
                        + schema
                        + ".orders VALUES (1, 'books', 12.50, '2026-11-27 09:00:00'), (2, 'games',"
                        + " 59.99, '2026-11-28 18:30:00'), (3, 'books', 8.00, '2026-11-29"
                        + " 07:45:00') ON CONFLICT DO NOTHING");
    }

    @Override
    public List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers) {
        return List.of(
                UsersDomains.source(
                        schema,
                        "orders",
                        "id BIGINT NOT NULL, category STRING, amount DECIMAL(10, 2), order_ts"
                                + " TIMESTAMP(3)",
                        topicPrefix,
                        bootstrapServers));
    }

    @Override
    public List<String> materializedTables(String schema) {
        return List.of(
                "CREATE OR ALTER MATERIALIZED TABLE "
                        + schema
                        + ".orders_by_category FRESHNESS = INTERVAL '1' MINUTE AS"
                        + " SELECT category, COUNT(*) AS orders, SUM(amount) AS revenue FROM "
                        + schema
                        + ".orders GROUP BY category",
                "CREATE OR ALTER MATERIALIZED TABLE "
                        + schema
                        + ".orders_ods PARTITIONED BY (ds) FRESHNESS = INTERVAL '10' SECOND AS"
                        + " SELECT id, category, amount, order_ts, DATE_FORMAT(order_ts,"
                        + " 'yyyy-MM-dd') AS ds FROM "
                        + schema
                        + ".orders",
                "CREATE OR ALTER MATERIALIZED TABLE "
                        + schema
                        + ".orders_hourly PARTITIONED BY (ds) WITH"
                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd') FRESHNESS ="
                        + " INTERVAL '1' HOUR REFRESH_MODE = FULL AS SELECT ds, category, COUNT(*)"
                        + " AS orders, SUM(amount) AS revenue FROM "
                        + schema
                        + ".orders_ods GROUP BY ds, category",
                "CREATE OR ALTER MATERIALIZED TABLE "
                        + schema
                        + ".orders_daily PARTITIONED BY (ds) WITH"
                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd') FRESHNESS ="
                        + " INTERVAL '1' DAY REFRESH_MODE = FULL AS SELECT ds, COUNT(*) AS orders,"
                        + " SUM(amount) AS revenue FROM "
                        + schema
                        + ".orders_ods GROUP BY ds");
    }

    @Override
    public List<Check> checks(String schema) {
        String day = "to_char(order_ts, 'YYYY-MM-DD')";
        return List.of(
                new Check(
                        schema + ".orders_by_category",
                        "SELECT category, orders, revenue FROM " + schema + ".orders_by_category",
                        "SELECT category, COUNT(*), SUM(amount) FROM "
                                + schema
                                + ".orders GROUP BY category",
                        false),
                new Check(
                        schema + ".orders_ods",
                        "SELECT id, category, amount, order_ts, ds FROM " + schema + ".orders_ods",
                        "SELECT id, category, amount, order_ts, "
                                + day
                                + " FROM "
                                + schema
                                + ".orders",
                        false),
                new Check(
                        schema + ".orders_hourly",
                        "SELECT ds, category, orders, revenue FROM " + schema + ".orders_hourly",
                        "SELECT "
                                + day
                                + ", category, COUNT(*), SUM(amount) FROM "
                                + schema
                                + ".orders GROUP BY 1, 2",
                        true),
                new Check(
                        schema + ".orders_daily",
                        "SELECT ds, orders, revenue FROM " + schema + ".orders_daily",
                        "SELECT "
                                + day
                                + ", COUNT(*), SUM(amount) FROM "
                                + schema
                                + ".orders GROUP BY 1",
                        true));
    }

    @Override
    public Workload workload(String schema, Random random, Connection postgres)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Statement statement = postgres.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT id FROM " + schema + ".orders ORDER BY id")) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return new Orders(schema, random, ids);
    }

    /**
     * New orders over the last three days, changed amounts and categories, cancellations; one step
     * in twenty is a burst.
     */
    private static final class Orders extends SeededChanges {
        private final String schema;
        private final List<Long> ids;
        private final LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        private long next;

        Orders(String schema, Random random, List<Long> ids) {
            super(random);
            this.schema = schema;
            this.ids = ids;
            this.next = ids.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
        }

        @Override
        protected void change(Connection postgres) throws SQLException {
            int dice = random.nextInt(100);
            if (dice < 60 || ids.isEmpty()) {
                long id = next++;
                Timestamp at = Timestamp.valueOf(now.minusSeconds(random.nextInt(3 * 24 * 3600)));
                update(
                        postgres,
                        "INSERT INTO " + schema + ".orders VALUES (?, ?, ?, ?)",
                        id,
                        CATEGORY[random.nextInt(CATEGORY.length)],
                        amount(),
                        at);
                ids.add(id);
            } else if (dice < 75) {
                update(
                        postgres,
                        "UPDATE " + schema + ".orders SET amount = ? WHERE id = ?",
                        amount(),
                        ids.get(random.nextInt(ids.size())));
            } else if (dice < 85) {
                update(
                        postgres,
                        "UPDATE " + schema + ".orders SET category = ? WHERE id = ?",
                        CATEGORY[random.nextInt(CATEGORY.length)],
                        ids.get(random.nextInt(ids.size())));
            } else {
                update(
                        postgres,
                        "DELETE FROM " + schema + ".orders WHERE id = ?",
                        ids.remove(random.nextInt(ids.size())));
            }
        }

        private BigDecimal amount() {
            return BigDecimal.valueOf(100 + random.nextInt(50_000), 2);
        }
    }
}
