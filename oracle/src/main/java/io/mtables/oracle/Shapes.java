package io.mtables.oracle;

import io.mtables.oracle.ShapeQueries.Shape;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The common query shapes a user pastes, each a CONTINUOUS materialized table over Debezium sources
 * with NULLs, updates and deletes, each compared with PostgreSQL's answer to the same query:
 * DISTINCT, GROUP BY a nullable column, HAVING, a global aggregate, LEFT and FULL OUTER joins, IN
 * and NOT EXISTS subqueries, CASE and COALESCE with DECIMAL arithmetic, string and date functions,
 * Top-N, UNION, and UNION ALL (keyed by the planner on each branch's key, or by a declared key). A
 * UNION ALL whose branch has no key is refused at CREATE (nothing tells that branch's rows apart),
 * which {@link #refused} lists for the tests.
 */
public final class Shapes implements Example {

    private static final String[] FIRST = {"Egor", "Pavel", "Anna", "Olga", "Marie", "Jean"};
    private static final String[] LAST = {
        "Myasnik", "Volk", "Petrova", "Martin", "Dubois", "D'Arcy"
    };
    private static final String[] CITY = {"Lyon", "Riga", "Oslo"};
    private static final String[] PLAN = {"free", "pro", "team"};

    /** Statements refused at CREATE, with a word their refusal must contain. */
    public static List<List<String>> refused(String s) {
        return List.of(
                List.of(
                        "CREATE MATERIALIZED TABLE "
                                + s
                                + ".shape_union_all_names FRESHNESS = INTERVAL '5' SECOND AS"
                                + " SELECT firstname AS name FROM "
                                + s
                                + ".people UNION ALL SELECT plan AS name FROM "
                                + s
                                + ".accounts",
                        "has no key of its own"),
                List.of(
                        "CREATE MATERIALIZED TABLE "
                                + s
                                + ".shape_full_over_cdc FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE"
                                + " = FULL AS SELECT id, plan FROM "
                                + s
                                + ".accounts",
                        "cannot run as a batch"));
    }

    /** Each shape's query by its table's name, over the schema {@code s}. */
    public static Map<String, String> queries(String s) {
        Map<String, String> queries = new LinkedHashMap<>();
        ShapeQueries.all(s).forEach(shape -> queries.put(shape.name(), shape.query()));
        return queries;
    }

    /** The names of the shapes' tables. */
    public static List<String> tableNames(String schema) {
        return ShapeQueries.all(schema).stream().map(Shape::name).toList();
    }

    /** Only this shape's table, or every shape's when null. */
    private final String only;

    /** Every shape: the example {@code shapes}. */
    Shapes() {
        this(null);
    }

    private Shapes(String only) {
        this.only = only;
    }

    /**
     * One example per shape, named after its table ({@code shape_distinct} is the example {@code
     * shape-distinct}), over the same tables.
     */
    static List<Example> eachShape() {
        return ShapeQueries.all("s").stream()
                .map(shape -> (Example) new Shapes(shape.name()))
                .toList();
    }

    @Override
    public String name() {
        return only == null ? "shapes" : only.replace('_', '-');
    }

    private List<Shape> chosen(String schema) {
        return ShapeQueries.all(schema).stream()
                .filter(shape -> only == null || shape.name().equals(only))
                .toList();
    }

    @Override
    public List<String> postgresTables(String schema) {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".people (id BIGINT PRIMARY KEY, firstname TEXT, lastname TEXT, city"
                        + " TEXT)",
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".accounts (id BIGINT PRIMARY KEY, person_id BIGINT, plan TEXT, balance"
                        + " NUMERIC(10, 2), opened_at TIMESTAMP(6))");
    }

    @Override
    public List<String> sampleRows(String schema) {
        return List.of(
                "INSERT INTO "
                        + schema
                        + ".people VALUES (1, 'Egor', 'Myasnik', 'Riga'), (2, NULL, 'Volk', NULL),"
                        + " (3, 'Anna', NULL, 'Oslo') ON CONFLICT DO NOTHING",
                "INSERT INTO "
                        + schema
                        + ".accounts VALUES (1, 1, 'pro', 120.50, '2026-01-15 10:00:00'), (2, 1,"
                        + " NULL, NULL, '2025-12-31 23:59:59'), (3, NULL, 'free', 10.00,"
                        + " '2026-02-01 00:00:00') ON CONFLICT DO NOTHING");
    }

    @Override
    public List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers) {
        return List.of(
                UsersDomains.source(
                        schema,
                        "people",
                        "id BIGINT NOT NULL, firstname STRING, lastname STRING, city STRING",
                        topicPrefix,
                        bootstrapServers),
                UsersDomains.source(
                        schema,
                        "accounts",
                        "id BIGINT NOT NULL, person_id BIGINT, plan STRING, balance DECIMAL(10, 2),"
                                + " opened_at TIMESTAMP(6)",
                        topicPrefix,
                        bootstrapServers));
    }

    @Override
    public List<String> materializedTables(String schema) {
        return chosen(schema).stream()
                .map(
                        shape ->
                                "CREATE OR ALTER MATERIALIZED TABLE "
                                        + schema
                                        + "."
                                        + shape.name()
                                        + " "
                                        + shape.declared()
                                        + "FRESHNESS = INTERVAL '5' SECOND AS "
                                        + shape.query())
                .toList();
    }

    @Override
    public List<Check> checks(String schema) {
        return chosen(schema).stream()
                .map(
                        shape ->
                                new Check(
                                        schema + "." + shape.name(),
                                        "SELECT "
                                                + shape.columns()
                                                + " FROM "
                                                + schema
                                                + "."
                                                + shape.name(),
                                        shape.postgresQuery(),
                                        false))
                .toList();
    }

    @Override
    public Workload workload(String schema, Random random, Connection postgres)
            throws SQLException {
        return new Changes(
                schema,
                random,
                SeededChanges.ids(postgres, schema + ".people"),
                SeededChanges.ids(postgres, schema + ".accounts"));
    }

    /** Inserts, updates to and from NULL, moves and deletes of people and their accounts. */
    private static final class Changes extends SeededChanges {
        private final String schema;
        private final List<Long> people;
        private final List<Long> accounts;
        private long nextPerson;
        private long nextAccount;

        Changes(String schema, Random random, List<Long> people, List<Long> accounts) {
            super(random);
            this.schema = schema;
            this.people = people;
            this.accounts = accounts;
            this.nextPerson = nextId(people);
            this.nextAccount = nextId(accounts);
        }

        @Override
        protected void change(Connection postgres) throws SQLException {
            int dice = random.nextInt(100);
            if (dice < 12 || people.size() < 3) {
                long id = nextPerson++;
                update(
                        postgres,
                        "INSERT INTO " + schema + ".people VALUES (?, ?, ?, ?)",
                        id,
                        maybe(FIRST),
                        maybe(LAST),
                        maybe(CITY));
                people.add(id);
            } else if (dice < 45 || accounts.size() < 3) {
                long id = nextAccount++;
                update(
                        postgres,
                        "INSERT INTO " + schema + ".accounts VALUES (?, ?, ?, ?, ?)",
                        id,
                        owner(),
                        maybe(PLAN),
                        balance(),
                        opened());
                accounts.add(id);
            } else if (dice < 60) {
                update(
                        postgres,
                        "UPDATE " + schema + ".people SET firstname = ?, lastname = ? WHERE id = ?",
                        maybe(FIRST),
                        maybe(LAST),
                        pick(people));
            } else if (dice < 72) {
                update(
                        postgres,
                        "UPDATE " + schema + ".accounts SET person_id = ? WHERE id = ?",
                        owner(),
                        pick(accounts));
            } else if (dice < 84) {
                update(
                        postgres,
                        "UPDATE " + schema + ".accounts SET balance = ?, plan = ? WHERE id = ?",
                        balance(),
                        maybe(PLAN),
                        pick(accounts));
            } else if (dice < 92) {
                update(
                        postgres,
                        "DELETE FROM " + schema + ".people WHERE id = ?",
                        people.remove(random.nextInt(people.size())));
            } else {
                update(
                        postgres,
                        "DELETE FROM " + schema + ".accounts WHERE id = ?",
                        accounts.remove(random.nextInt(accounts.size())));
            }
        }

        /**
         * An owner, one time in eight nobody (NULL), one time in ten a person who does not exist
         * (yet).
         */
        private Long owner() {
            int dice = random.nextInt(40);
            return dice < 5 ? null : dice < 9 ? nextPerson + random.nextInt(3) : pick(people);
        }

        private BigDecimal balance() {
            return random.nextInt(6) == 0 ? null : BigDecimal.valueOf(random.nextInt(20_000), 2);
        }

        private Timestamp opened() {
            return Timestamp.valueOf(
                    LocalDateTime.of(2025, 1, 1, 0, 0).plusMinutes(random.nextInt(60 * 24 * 500)));
        }

        private String maybe(String[] values) {
            return random.nextInt(5) == 0 ? null : values[random.nextInt(values.length)];
        }

        private long pick(List<Long> ids) {
            return ids.get(random.nextInt(ids.size()));
        }
    }
}
