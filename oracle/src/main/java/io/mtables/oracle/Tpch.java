package io.mtables.oracle;

import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * TPC-H over Debezium: its eight tables in PostgreSQL, filled by TPC-H's own generator (dbgen's
 * rows, from Trino's {@code io.trino.tpch}) at scale factor {@code MT_TPCH_SCALE_FACTOR} (0.001 by
 * default: 6,005 line items), captured into Kafka, and its 22 queries ({@link TpchQueries}) each a
 * CONTINUOUS materialized table compared with PostgreSQL's answer. The workload is the
 * specification's refresh functions (RF1: a new order with its line items; RF2: an order deleted
 * with its line items) mixed with updates of quantities, discounts, priorities, balances and stock.
 */
public final class Tpch implements Example {

    /** Where the scale factor comes from: bigger runs by hand, the smallest in the build. */
    public static final String SCALE_FACTOR_ENV = "MT_TPCH_SCALE_FACTOR";

    private static final int ROWS_PER_INSERT = 500;

    /** Only this query's table ({@code q11}), or every query's when null. */
    private final String only;

    /** Every query: the example {@code tpch}. */
    Tpch() {
        this(null);
    }

    private Tpch(String only) {
        this.only = only;
    }

    /**
     * One example per query, over the same tables: {@code tpch-q11} declares and compares only
     * {@code q11} (a large scale factor's slow query on its own).
     */
    static List<Example> eachQuery() {
        return tableNames().stream().map(name -> (Example) new Tpch(name)).toList();
    }

    @Override
    public String name() {
        return only == null ? "tpch" : "tpch-" + only;
    }

    private List<String> chosen() {
        return tableNames().stream().filter(name -> only == null || name.equals(only)).toList();
    }

    /** The scale factor of this run. */
    public static double scaleFactor() {
        String value = System.getenv(SCALE_FACTOR_ENV);
        return value == null || value.isBlank() ? 0.001 : Double.parseDouble(value);
    }

    /** The tables of the 22 queries, {@code q01} to {@code q22}. */
    public static List<String> tableNames() {
        return List.copyOf(TpchQueries.QUERIES.keySet());
    }

    @Override
    public List<String> postgresTables(String schema) {
        List<String> statements = new ArrayList<>(List.of("CREATE SCHEMA IF NOT EXISTS " + schema));
        for (TpchTables.Table table : TpchTables.ALL) {
            statements.add(
                    "CREATE TABLE IF NOT EXISTS "
                            + schema
                            + "."
                            + table.name()
                            + " ("
                            + table.postgresColumns()
                            + ", PRIMARY KEY ("
                            + table.key()
                            + "))");
        }
        return statements;
    }

    /**
     * dbgen's rows, 500 to an INSERT; ON CONFLICT DO NOTHING, so a second prepare changes nothing.
     */
    @Override
    public List<String> sampleRows(String schema) {
        List<String> statements = new ArrayList<>();
        for (TpchTable<?> generator : TpchTable.getTables()) {
            List<String> values = new ArrayList<>();
            for (TpchEntity row : generator.createGenerator(scaleFactor(), 1, 1)) {
                values.add(values(row.toLine()));
                if (values.size() == ROWS_PER_INSERT) {
                    statements.add(insert(schema, generator.getTableName(), values));
                    values.clear();
                }
            }
            if (!values.isEmpty()) {
                statements.add(insert(schema, generator.getTableName(), values));
            }
        }
        return statements;
    }

    private static String insert(String schema, String table, List<String> values) {
        return "INSERT INTO "
                + schema
                + "."
                + table
                + " VALUES "
                + String.join(", ", values)
                + " ON CONFLICT DO NOTHING";
    }

    /**
     * One dbgen line ({@code a|b|c|}) as a VALUES tuple of literals PostgreSQL casts to the
     * columns' types.
     */
    private static String values(String line) {
        String[] fields = line.split("\\|", -1);
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < fields.length - 1; i++) {
            literals.add("'" + fields[i].replace("'", "''") + "'");
        }
        return "(" + String.join(", ", literals) + ")";
    }

    @Override
    public List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers) {
        return TpchTables.ALL.stream()
                .map(
                        table ->
                                "CREATE TABLE IF NOT EXISTS "
                                        + schema
                                        + "."
                                        + table.name()
                                        + " ("
                                        + table.flinkColumns()
                                        + ", PRIMARY KEY ("
                                        + table.key()
                                        + ") NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = '"
                                        + topicPrefix
                                        + "."
                                        + schema
                                        + "."
                                        + table.name()
                                        + "', 'format' = 'debezium-json',"
                                        + " 'properties.bootstrap.servers' = '"
                                        + bootstrapServers
                                        + "', 'properties.isolation.level' = 'read_committed',"
                                        + " 'scan.startup.mode' = 'earliest-offset')")
                .toList();
    }

    @Override
    public List<String> materializedTables(String schema) {
        List<String> statements = new ArrayList<>();
        for (String name : chosen()) {
            statements.add(create(schema, name));
        }
        return statements;
    }

    /** The CREATE statement of one query's table, with its declared key if it has one. */
    public static String create(String schema, String name) {
        String declared = TpchQueries.DECLARED.get(name);
        return "CREATE OR ALTER MATERIALIZED TABLE "
                + schema
                + "."
                + name
                + (declared.isEmpty() ? "" : " (PRIMARY KEY (" + declared + ") NOT ENFORCED)")
                + " FRESHNESS = INTERVAL '5' SECOND AS "
                + TpchQueries.QUERIES.get(name).replace("$s", schema);
    }

    /**
     * The queries of the tables by name, over the schema {@code s}, with the key a table declares
     * before its query.
     */
    public static Map<String, String> queries(String s) {
        Map<String, String> queries = new LinkedHashMap<>();
        for (String name : tableNames()) {
            String declared = TpchQueries.DECLARED.get(name);
            queries.put(
                    name,
                    (declared.isEmpty() ? "" : "PRIMARY KEY (" + declared + ") NOT ENFORCED, AS ")
                            + TpchQueries.QUERIES.get(name).replace("$s", s));
        }
        return queries;
    }

    @Override
    public List<Check> checks(String schema) {
        List<Check> checks = new ArrayList<>();
        for (String name : chosen()) {
            String compared = TpchQueries.COMPARED.get(name);
            checks.add(
                    new Check(
                            schema + "." + name,
                            "SELECT " + compared + " FROM " + schema + "." + name,
                            "SELECT "
                                    + compared
                                    + " FROM ("
                                    + TpchQueries.QUERIES.get(name).replace("$s", schema)
                                    + ") AS answer",
                            false));
        }
        return checks;
    }

    @Override
    public Workload workload(String schema, Random random, Connection postgres)
            throws SQLException {
        Map<Long, Integer> lines = new TreeMap<>();
        try (Statement statement = postgres.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT o_orderkey, (SELECT COUNT(*) FROM "
                                        + schema
                                        + ".lineitem WHERE l_orderkey = o_orderkey) FROM "
                                        + schema
                                        + ".orders")) {
            while (rows.next()) {
                lines.put(rows.getLong(1), rows.getInt(2));
            }
        }
        return new RefreshFunctions(schema, random, lines);
    }

    /** RF1 and RF2 of the specification, and updates, on the orders this workload knows. */
    private static final class RefreshFunctions extends SeededChanges {
        private final String schema;
        private final List<Long> orders;
        private final Map<Long, Integer> lines;
        private long nextOrder;

        RefreshFunctions(String schema, Random random, Map<Long, Integer> lines) {
            super(random);
            this.schema = schema;
            this.lines = lines;
            this.orders = new ArrayList<>(lines.keySet());
            this.nextOrder = orders.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
        }

        @Override
        protected void change(Connection postgres) throws SQLException {
            int dice = random.nextInt(100);
            if (dice < 25 || orders.size() < 10) {
                newOrder(postgres);
            } else if (dice < 45) {
                long order = orders.remove(random.nextInt(orders.size()));
                lines.remove(order);
                update(postgres, "DELETE FROM " + schema + ".lineitem WHERE l_orderkey = ?", order);
                update(postgres, "DELETE FROM " + schema + ".orders WHERE o_orderkey = ?", order);
            } else if (dice < 65) {
                long order = pick();
                update(
                        postgres,
                        "UPDATE "
                                + schema
                                + ".lineitem SET l_quantity = ?, l_discount = ? WHERE l_orderkey ="
                                + " ? AND l_linenumber = ?",
                        BigDecimal.valueOf(1 + random.nextInt(50)),
                        BigDecimal.valueOf(random.nextInt(11), 2),
                        order,
                        1 + random.nextInt(Math.max(1, lines.get(order))));
            } else if (dice < 75) {
                update(
                        postgres,
                        "UPDATE " + schema + ".orders SET o_orderpriority = ? WHERE o_orderkey = ?",
                        new String[] {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
                                [random.nextInt(5)],
                        pick());
            } else if (dice < 88) {
                update(
                        postgres,
                        "UPDATE "
                                + schema
                                + ".customer SET c_acctbal = c_acctbal + ? WHERE c_custkey ="
                                + " (SELECT o_custkey FROM "
                                + schema
                                + ".orders WHERE o_orderkey = ?)",
                        BigDecimal.valueOf(random.nextInt(200_000) - 100_000, 2),
                        pick());
            } else {
                update(
                        postgres,
                        "UPDATE "
                                + schema
                                + ".partsupp SET ps_availqty = ? WHERE (ps_partkey, ps_suppkey) IN"
                                + " (SELECT l_partkey, l_suppkey FROM "
                                + schema
                                + ".lineitem WHERE l_orderkey = ? AND l_linenumber = 1)",
                        random.nextInt(10_000),
                        pick());
            }
        }

        /**
         * RF1: a new order copied from a known one under a new key, with copies of its line items,
         * dated like it.
         */
        private void newOrder(Connection postgres) throws SQLException {
            long template = pick();
            long order = nextOrder++;
            update(
                    postgres,
                    "INSERT INTO "
                            + schema
                            + ".orders SELECT ?, o_custkey, o_orderstatus, o_totalprice,"
                            + " o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment"
                            + " FROM "
                            + schema
                            + ".orders WHERE o_orderkey = ?",
                    order,
                    template);
            update(
                    postgres,
                    "INSERT INTO "
                            + schema
                            + ".lineitem SELECT ?, l_partkey, l_suppkey, l_linenumber, l_quantity,"
                            + " l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus,"
                            + " l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct,"
                            + " l_shipmode, l_comment FROM "
                            + schema
                            + ".lineitem WHERE l_orderkey = ?",
                    order,
                    template);
            orders.add(order);
            lines.put(order, lines.get(template));
        }

        private long pick() {
            return orders.get(random.nextInt(orders.size()));
        }
    }
}
