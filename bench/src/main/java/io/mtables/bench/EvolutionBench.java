package io.mtables.bench;

import io.mtables.oracle.Statements;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A query change under load, for each verdict: {@code rows} rows in PostgreSQL captured by
 * Debezium, a CONTINUOUS table (FRESHNESS 2 seconds) over them, then ALTER ... AS while 100 rows a
 * second are inserted and a reader polls the table through ddl-service every 100 ms. Per change:
 * the time from the ALTER to the first read of the new query's answer, and the longest time the
 * reader saw no new data around the switch; as the baseline, the longest such time over the 20
 * seconds of the same load before the ALTER.
 *
 * <p>Arguments: ddl-service URL, JDBC URL, schema, rows.
 */
public final class EvolutionBench {

    private static final int CATEGORIES = 7;
    private static final Duration BASELINE = Duration.ofSeconds(20);
    private static final Duration AFTER = Duration.ofSeconds(15);
    private static final AtomicLong NEXT_ID = new AtomicLong(1);

    private record Change(
            String table, String verdict, String oldQuery, String newQuery, String progress) {}

    /**
     * One poll: when, how many columns the table had, whether its last column held a value (a
     * column a change adds is NULL until the rows are the new query's), and the progress value (it
     * grows with every insert the table holds).
     */
    private record Read(Instant at, int columns, boolean lastFilled, String progress) {}

    public static void main(String[] args) throws Exception {
        Statements ddl = new Statements(args[0], io.mtables.bench.Statements.token());
        String jdbc = args[1];
        String schema = args[2];
        int rows = Integer.parseInt(args[3]);
        // Which verdicts' changes to measure (all three unless named, e.g. "COMPATIBLE").
        List<String> verdicts =
                args.length > 4
                        ? List.of(args[4].split(","))
                        : List.of("COMPATIBLE", "INCOMPATIBLE", "UNKNOWN");
        MachineFacts.print(
                "evolution: ALTER MATERIALIZED TABLE ... AS under load, each verdict, "
                        + rows
                        + " source rows, FRESHNESS 2 seconds");

        insert(jdbc, schema, rows);
        ddl.send(
                "CREATE TABLE "
                        + schema
                        + ".items (id BIGINT NOT NULL, category STRING, amount BIGINT, PRIMARY KEY"
                        + " (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'cdc."
                        + schema
                        + ".items', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                        + System.getenv().getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:29092")
                        + "', 'properties.isolation.level' ="
                        + " 'read_committed', 'scan.startup.mode' = 'earliest-offset')");
        String items = schema + ".items";
        List<Change> changes =
                List.of(
                        new Change(
                                schema + ".items_copy",
                                "COMPATIBLE",
                                "SELECT id, category, amount FROM " + items,
                                "SELECT id, category, amount, UPPER(category) AS shout FROM "
                                        + items,
                                "SELECT COUNT(*) FROM " + schema + ".items_copy"),
                        new Change(
                                schema + ".by_category",
                                "INCOMPATIBLE",
                                "SELECT category, COUNT(*) AS n, SUM(amount) AS total FROM "
                                        + items
                                        + " GROUP BY category",
                                "SELECT category, COUNT(*) AS n, SUM(amount) AS total, MAX(amount)"
                                        + " AS largest FROM "
                                        + items
                                        + " GROUP BY category",
                                "SELECT SUM(n) FROM " + schema + ".by_category"),
                        new Change(
                                schema + ".big_by_category",
                                "UNKNOWN",
                                "SELECT category, COUNT(*) AS n FROM "
                                        + items
                                        + " WHERE amount > 50 GROUP BY category",
                                "SELECT category, COUNT(*) AS n FROM "
                                        + items
                                        + " WHERE amount > 20 GROUP BY category",
                                "SELECT SUM(n) FROM " + schema + ".big_by_category"));

        System.out.println(
                "| change | verdict | ALTER to the new answer read | longest without new data,"
                        + " around the switch | the same before the ALTER (baseline) | ratio |");
        System.out.println("|---|---|---|---|---|---|");
        for (Change change : changes) {
            if (verdicts.contains(change.verdict())) {
                measure(ddl, jdbc, schema, change);
            }
        }
    }

    private static void measure(Statements ddl, String jdbc, String schema, Change change)
            throws Exception {
        ddl.send(
                "CREATE MATERIALIZED TABLE "
                        + change.table()
                        + " FRESHNESS = INTERVAL '2' SECOND AS "
                        + change.oldQuery());
        awaitAllRows(ddl, jdbc, schema, change);

        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        load.scheduleWithFixedDelay(
                () -> insertQuietly(jdbc, schema, 10), 0, 100, TimeUnit.MILLISECONDS);
        List<Read> reads = new ArrayList<>();
        ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
        reader.scheduleWithFixedDelay(
                () -> {
                    var table = ddl.rows("SELECT * FROM " + change.table() + " LIMIT 1");
                    var progress = ddl.rows(change.progress()).get(0).get(0);
                    synchronized (reads) {
                        reads.add(
                                new Read(
                                        Instant.now(),
                                        table.isEmpty() ? 0 : table.get(0).size(),
                                        lastFilled(table),
                                        progress));
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
        try {
            TimeUnit.MILLISECONDS.sleep(
                    BASELINE.toMillis()); // the reads of the baseline, under the same load
            // The new answer: the new columns; for a change that keeps them, a total the old query
            // cannot reach.
            long newAtAlter =
                    Long.parseLong(
                            postgres(
                                    jdbc,
                                    change.progress()
                                            .replace(
                                                    change.table(),
                                                    "(" + change.newQuery() + ") AS q")));
            Instant altered = Instant.now();
            ddl.send("ALTER MATERIALIZED TABLE " + change.table() + " AS " + change.newQuery());
            int oldColumns = columns(change.oldQuery());
            int newColumns = columns(change.newQuery());
            Instant newRead = null;
            Instant giveUp = altered.plus(Duration.ofMinutes(10));
            while (newRead == null && Instant.now().isBefore(giveUp)) {
                TimeUnit.MILLISECONDS.sleep(100);
                synchronized (reads) {
                    newRead =
                            reads.stream()
                                    .filter(
                                            r ->
                                                    r.at().isAfter(altered)
                                                            && r.columns() == newColumns
                                                            && r.lastFilled()
                                                            && (oldColumns != newColumns
                                                                    || Long.parseLong(r.progress())
                                                                            >= newAtAlter))
                                    .map(Read::at)
                                    .findFirst()
                                    .orElse(null);
                }
            }
            if (newRead == null) {
                throw new IllegalStateException(
                        change.table() + ": no read of the new answer within 10 minutes");
            }
            TimeUnit.MILLISECONDS.sleep(AFTER.toMillis());
            List<Read> all;
            synchronized (reads) {
                all = List.copyOf(reads);
            }
            Instant start = all.get(0).at();
            Duration baseline = longestWithoutNewData(all, start.plusSeconds(5), altered);
            Duration around = longestWithoutNewData(all, altered, Instant.now());
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %.1f s | %.1f s | %.1f s | %.2f |%n",
                    change.table().substring(change.table().indexOf('.') + 1),
                    change.verdict(),
                    Duration.between(altered, newRead).toMillis() / 1000.0,
                    around.toMillis() / 1000.0,
                    baseline.toMillis() / 1000.0,
                    (double) around.toMillis() / Math.max(1, baseline.toMillis()));
        } finally {
            reader.shutdownNow();
            load.shutdown();
            load.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Whether the first row's last column holds a value (NULL comes back as "NULL": Rows.value).
     */
    private static boolean lastFilled(List<List<String>> rows) {
        return !rows.isEmpty() && !"NULL".equals(rows.get(0).get(rows.get(0).size() - 1));
    }

    private static int columns(String query) {
        return query.substring(0, query.indexOf(" FROM ")).split(",").length;
    }

    /** The longest time between two reads whose progress differed, within [from, to]. */
    private static Duration longestWithoutNewData(List<Read> reads, Instant from, Instant to) {
        Duration longest = Duration.ZERO;
        Instant lastChange = null;
        String last = null;
        for (Read read : reads) {
            if (read.at().isBefore(from) || read.at().isAfter(to)) {
                continue;
            }
            if (last == null || !last.equals(read.progress())) {
                if (lastChange != null && last != null) {
                    Duration between = Duration.between(lastChange, read.at());
                    longest = between.compareTo(longest) > 0 ? between : longest;
                }
                lastChange = read.at();
                last = read.progress();
            }
        }
        if (lastChange != null) {
            Duration tail = Duration.between(lastChange, to);
            longest = tail.compareTo(longest) > 0 ? tail : longest;
        }
        return longest;
    }

    private static void awaitAllRows(Statements ddl, String jdbc, String schema, Change change)
            throws Exception {
        String expected =
                postgres(
                        jdbc,
                        change.progress()
                                .replace(change.table(), "(" + change.oldQuery() + ") AS q"));
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(10));
        while (!expected.equals(ddl.rows(change.progress()).get(0).get(0))) {
            if (Instant.now().isAfter(giveUp)) {
                throw new IllegalStateException(
                        change.table()
                                + " did not reach PostgreSQL's "
                                + expected
                                + " within 10 minutes");
            }
            TimeUnit.SECONDS.sleep(1);
        }
    }

    private static String postgres(String jdbc, String query) throws Exception {
        try (Connection connection = connect(jdbc);
                var statement = connection.createStatement();
                var result = statement.executeQuery(query)) {
            result.next();
            return result.getString(1);
        }
    }

    private static void insertQuietly(String jdbc, String schema, int rows) {
        try {
            insert(jdbc, schema, rows);
        } catch (Exception e) {
            throw new IllegalStateException("inserting into PostgreSQL", e);
        }
    }

    private static void insert(String jdbc, String schema, int rows) throws Exception {
        try (Connection connection = connect(jdbc);
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO " + schema + ".items VALUES (?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                long id = NEXT_ID.getAndIncrement();
                insert.setLong(1, id);
                insert.setString(2, "category_" + (id * 7919 % CATEGORIES));
                insert.setLong(3, id * 31 % 100);
                insert.addBatch();
                if (i % 1000 == 999) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
    }

    private static Connection connect(String jdbc) throws Exception {
        Properties credentials = new Properties();
        credentials.setProperty("user", System.getenv().getOrDefault("MT_PG_USER", "mt"));
        credentials.setProperty("password", System.getenv().getOrDefault("MT_PG_PASSWORD", "mt"));
        return DriverManager.getConnection(jdbc, credentials);
    }
}
