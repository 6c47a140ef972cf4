package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.oracle.Postgres;
import io.mtables.oracle.Statements;
import io.mtables.testing.kafka.KafkaBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new query for running CONTINUOUS tables, one of each verdict, under a running load of inserts
 * into PostgreSQL captured by Debezium: a reader polling SELECT through ddl-service every 100 ms
 * never sees the table empty, a row gone that it saw before, a key twice, or a count go back; and
 * the table ends equal to PostgreSQL's answer to the new query.
 */
class QueryChangeAcrossServicesIT {

    private static final ExampleServices SERVICES =
            new ExampleServices("evolution", 18680, 8, "1g");
    private static final String SCHEMA = SERVICES.schema();
    private static final Postgres POSTGRES = ExampleServices.POSTGRES;
    private static final int CATEGORIES = 7;
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private static final String BASE = "2026-12-01 00:00:00";
    private static final int FIRST_CLICKS = 600;
    private static final AtomicLong NEXT_CLICK = new AtomicLong(1);
    private static final String CLICKS_TOPIC = "cdc." + SCHEMA + ".clicks";

    @BeforeAll
    static void startServices() throws Exception {
        POSTGRES.execute(
                List.of(
                        "CREATE SCHEMA IF NOT EXISTS " + SCHEMA,
                        "CREATE TABLE "
                                + SCHEMA
                                + ".items (id BIGINT PRIMARY KEY, category TEXT NOT NULL, amount"
                                + " BIGINT NOT NULL)"));
        insert(500);
        // Clicks one second apart from BASE, id 1 the oldest: the capture's snapshot sends them in
        // event-time order, so the first half of the topic holds the first five minutes.
        POSTGRES.execute(
                List.of(
                        "CREATE TABLE "
                                + SCHEMA
                                + ".clicks (id BIGINT PRIMARY KEY, amount BIGINT NOT NULL, ts"
                                + " TIMESTAMP(3) NOT NULL)",
                        "INSERT INTO "
                                + SCHEMA
                                + ".clicks SELECT g, g % 10, TIMESTAMP '"
                                + BASE
                                + "' + g * INTERVAL '1 second' FROM generate_series(1, "
                                + FIRST_CLICKS
                                + ") AS g"));
        NEXT_CLICK.set(FIRST_CLICKS + 1);
        SERVICES.start(false, List.of());
        statements()
                .send(
                        "CREATE TABLE "
                                + SCHEMA
                                + ".items (id BIGINT NOT NULL, category STRING, amount BIGINT,"
                                + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka',"
                                + " 'topic' = 'cdc."
                                + SCHEMA
                                + ".items', 'format' = 'debezium-json',"
                                + " 'properties.bootstrap.servers' = '"
                                + KafkaBroker.bootstrapServers()
                                + "', 'scan.startup.mode' = 'earliest-offset')");
        statements()
                .send(
                        "CREATE TABLE "
                                + SCHEMA
                                + ".clicks (id BIGINT NOT NULL, amount BIGINT, ts TIMESTAMP(3),"
                                + " PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts -"
                                + " INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'topic' ="
                                + " '"
                                + CLICKS_TOPIC
                                + "', 'format' = 'debezium-json',"
                                + " 'properties.bootstrap.servers' = '"
                                + KafkaBroker.bootstrapServers()
                                + "', 'scan.startup.mode' = 'earliest-offset')");
    }

    @AfterAll
    static void stopServices() throws Exception {
        SERVICES.close();
    }

    /**
     * A table, its query before and after, the verdict on the change, and the column that keys its
     * rows.
     */
    private record Change(
            String table, String verdict, String oldQuery, String newQuery, String key) {}

    /**
     * Three tables, one per verdict, changed at once under the same load: each is created with its
     * old query and waited for until it equals PostgreSQL's answer to it; then, while rows are
     * inserted and a reader polls each, all three get their new query: the COMPATIBLE one goes on
     * from its job's state (the rows written rewritten, the source not read again, as Flink's REST
     * API shows), the other two are switched over; each ends equal to PostgreSQL's answer to its
     * new query. Every number in these tables only grows with inserts, and each new query's answer
     * holds at least the old one's: so any read that loses a row, repeats a key or counts less than
     * a read before it saw a table that was neither the old answer nor the new.
     */
    @Test
    void aNewQueryOfEachVerdictIsTakenUpUnderLoadWithNothingLostOrRepeated() throws Exception {
        String items = SCHEMA + ".items";
        List<Change> changes =
                List.of(
                        new Change(
                                SCHEMA + ".items_copy",
                                "COMPATIBLE",
                                "SELECT id, category, amount FROM " + items,
                                "SELECT id, category, amount, UPPER(category) AS shout FROM "
                                        + items,
                                "id"),
                        new Change(
                                SCHEMA + ".by_category",
                                "INCOMPATIBLE",
                                "SELECT category, COUNT(*) AS n, SUM(amount) AS total FROM "
                                        + items
                                        + " GROUP BY category",
                                "SELECT category, COUNT(*) AS n, SUM(amount) AS total, MAX(amount)"
                                        + " AS largest FROM "
                                        + items
                                        + " GROUP BY category",
                                "category"),
                        // Flink moves the filter into the normalization of the change stream:
                        // UNKNOWN.
                        new Change(
                                SCHEMA + ".big_by_category",
                                "UNKNOWN",
                                "SELECT category, COUNT(*) AS n FROM "
                                        + items
                                        + " WHERE amount > 50 GROUP BY category",
                                "SELECT category, COUNT(*) AS n FROM "
                                        + items
                                        + " WHERE amount > 20 GROUP BY category",
                                "category"));
        for (Change change : changes) {
            statements()
                    .send(
                            "CREATE MATERIALIZED TABLE "
                                    + change.table()
                                    + " FRESHNESS = INTERVAL '2' SECOND AS "
                                    + change.oldQuery());
        }
        for (Change change : changes) {
            awaitEqual(change.table(), change.oldQuery());
        }

        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        load.scheduleWithFixedDelay(() -> insertQuietly(3), 0, 100, TimeUnit.MILLISECONDS);
        List<Reader> readers = new ArrayList<>();
        try {
            for (Change change : changes) {
                readers.add(new Reader(change.table(), change.key()));
            }
            // The old answer read before the change: a first SELECT can take seconds (the fresh
            // clone's CI saw a reader whose first read came after the new column was appended).
            for (Reader reader : readers) {
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(
                                () ->
                                        assertThat(reader.readsSince(Instant.EPOCH))
                                                .as("reads before the change")
                                                .isGreaterThanOrEqualTo(3));
            }
            long idAtAlter = NEXT_ID.get();
            for (Change change : changes) {
                var altered =
                        statements()
                                .send(
                                        "ALTER MATERIALIZED TABLE "
                                                + change.table()
                                                + " AS "
                                                + change.newQuery());
                assertThat(altered.path("message").asText())
                        .as(change.table())
                        .contains("The running job's state: " + change.verdict());
            }
            for (int i = 0; i < changes.size(); i++) {
                Change change = changes.get(i);
                Reader reader = readers.get(i);
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(
                                () ->
                                        assertThat(describe(change.table(), "last_change.done"))
                                                .as(change.table())
                                                .startsWith(
                                                        change.verdict().equals("COMPATIBLE")
                                                                ? "state restored at"
                                                                : "switched over at"));
                if (change.verdict().equals("COMPATIBLE")) {
                    assertRestoredWithoutReadingTheSourcesAgain(change.table(), idAtAlter);
                }
                Instant switched = Instant.now();
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(
                                () ->
                                        assertThat(
                                                        reader.readsSince(
                                                                switched)) // the new answer read
                                                // under load
                                                .as(
                                                        "%s read since the switch; reads that"
                                                                + " failed: %s",
                                                        change.table(), reader.failures())
                                                .isGreaterThanOrEqualTo(5));
            }
        } finally {
            load.shutdown();
            load.awaitTermination(10, TimeUnit.SECONDS);
            for (Reader reader : readers) {
                reader.stop();
            }
        }
        for (int i = 0; i < changes.size(); i++) {
            Change change = changes.get(i);
            awaitEqual(change.table(), change.newQuery());
            readers.get(i).assertNothingLostOrRepeated();
            if (columns(change.oldQuery()) != columns(change.newQuery())) {
                assertThat(readers.get(i).columnCounts())
                        .as("reads of the old answer, then of the new one")
                        .containsExactly(columns(change.oldQuery()), columns(change.newQuery()));
            }
            assertThat(describe(change.table(), "last_change.verdict")).isEqualTo(change.verdict());
        }
    }

    /**
     * Seed 004's bridge: the clicks topic lost its oldest half (what retention does), so a new
     * query of a window table cannot be built from the sources. The ALTER is taken, not refused;
     * the table keeps the old query's rows of the windows the old job closed and takes the new
     * query's after them, under load, read every 100 ms without a row lost or a count going back;
     * and it ends equal to PostgreSQL's answer: the old query up to the cut-over, the new one after
     * it. A new query's rows of the first minutes, built from half their clicks, would differ.
     */
    @Test
    void aWindowTableWhoseSourcesLostTheirOldestChangesIsBridged() throws Exception {
        String table = SCHEMA + ".clicks_per_minute";
        String windows =
                " FROM TABLE(TUMBLE(TABLE "
                        + SCHEMA
                        + ".clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start,"
                        + " window_end";
        String oldQuery = "SELECT window_end, window_start, COUNT(*) AS n, SUM(amount) AS total";
        String newQuery = oldQuery + ", SUM(DISTINCT amount) AS amounts";
        statements()
                .send(
                        "CREATE MATERIALIZED TABLE "
                                + table
                                + " FRESHNESS = INTERVAL '2' SECOND AS "
                                + oldQuery
                                + windows);
        String closed =
                " FROM (SELECT *, date_trunc('minute', ts) AS window_start, date_trunc('minute',"
                        + " ts) + interval '1 minute' AS window_end FROM "
                        + SCHEMA
                        + ".clicks) AS c WHERE window_end <= (SELECT max(ts) - interval '5 second'"
                        + " FROM "
                        + SCHEMA
                        + ".clicks)";
        String oldAnswer =
                "SELECT window_end, window_start, COUNT(*), SUM(amount)"
                        + closed
                        + " GROUP BY window_start, window_end";
        // The snapshot holds the watermark back (SnapshotHeldWatermark): a click made after it
        // moves it on.
        clickQuietly(1);
        awaitEqual(table, oldAnswer);
        try (var admin =
                Admin.create(Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            admin.deleteRecords(
                            Map.of(
                                    new TopicPartition(CLICKS_TOPIC, 0),
                                    RecordsToDelete.beforeOffset(FIRST_CLICKS / 2)))
                    .all()
                    .get();
        }

        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        load.scheduleWithFixedDelay(() -> clickQuietly(3), 0, 100, TimeUnit.MILLISECONDS);
        Reader reader = new Reader(table, "window_end");
        String done;
        try {
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(reader.readsSince(Instant.EPOCH)).isGreaterThan(3));
            String alter = "ALTER MATERIALIZED TABLE " + table + " AS " + newQuery + windows;
            Map<String, String> explained = new HashMap<>();
            statements()
                    .rows("EXPLAIN " + alter)
                    .forEach(row -> explained.put(row.get(0), row.get(1)));
            explained.forEach(
                    (name, value) -> {
                        if (name.startsWith("evolution.")) {
                            System.out.println("EXPLAIN ALTER: " + name + " | " + value);
                        }
                    });
            assertThat(explained.get("evolution.verdict")).isEqualTo("INCOMPATIBLE");
            assertThat(explained.get("evolution.bridge"))
                    .startsWith("the old query's rows up to the cut-over by window_end")
                    .contains("starts at offset " + FIRST_CLICKS / 2);
            var altered = statements().send(alter);
            assertThat(altered.path("message").asText())
                    .contains("The running job's state: INCOMPATIBLE")
                    .contains("seed 004's bridge");
            done =
                    await().atMost(Duration.ofMinutes(3))
                            .pollInterval(Duration.ofSeconds(1))
                            .until(
                                    () -> describe(table, "last_change.done"),
                                    text -> text != null && text.startsWith("switched over at"));
            Instant switched = Instant.now();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    assertThat(reader.readsSince(switched))
                                            .isGreaterThanOrEqualTo(5));
        } finally {
            load.shutdown();
            load.awaitTermination(10, TimeUnit.SECONDS);
            reader.stop();
        }
        assertThat(describe(table, "last_change.bridge")).contains("deleted the records before it");
        var cut =
                java.util.regex.Pattern.compile("window_end up to ([0-9: .-]+) kept").matcher(done);
        assertThat(cut.find()).as(done).isTrue();
        String cutOver = cut.group(1).trim();
        assertThat(cutOver)
                .as("the deleted clicks' windows are the old query's")
                .isGreaterThanOrEqualTo("2026-12-01 00:06:00");
        awaitEqual(
                table,
                "SELECT window_end, window_start, COUNT(*), SUM(amount), NULL::numeric"
                        + closed
                        + " AND window_end <= TIMESTAMP '"
                        + cutOver
                        + "' GROUP BY window_start, window_end UNION ALL SELECT window_end,"
                        + " window_start, COUNT(*), SUM(amount), SUM(DISTINCT amount)"
                        + closed
                        + " AND window_end > TIMESTAMP '"
                        + cutOver
                        + "' GROUP BY window_start, window_end");
        reader.assertNothingLostOrRepeated();
    }

    private static void clickQuietly(int clicks) {
        try (Connection connection = POSTGRES.connect();
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO "
                                        + SCHEMA
                                        + ".clicks VALUES (?, ?, TIMESTAMP '"
                                        + BASE
                                        + "' + ? * INTERVAL '1 second')")) {
            for (int i = 0; i < clicks; i++) {
                long id = NEXT_CLICK.getAndIncrement();
                insert.setLong(1, id);
                insert.setLong(2, id % 10);
                insert.setLong(3, id);
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (Exception e) {
            throw new IllegalStateException("inserting clicks into PostgreSQL", e);
        }
    }

    /**
     * Flink's account of the table's job after a COMPATIBLE change: it started from a savepoint,
     * and its source has sent on no more changes than PostgreSQL took since the ALTER (reading the
     * topic again would send every row inserted before it too).
     */
    private static void assertRestoredWithoutReadingTheSourcesAgain(String table, long idAtAlter)
            throws Exception {
        String jobId =
                await().atMost(Duration.ofSeconds(60))
                        .ignoreExceptions()
                        .until(() -> runningJob(table), id -> id != null);
        JsonNode restored =
                flink("/jobs/" + jobId + "/checkpoints").path("latest").path("restored");
        assertThat(restored.path("is_savepoint").asBoolean())
                .as("restored from a savepoint")
                .isTrue();
        JsonNode source = flink("/jobs/" + jobId).path("vertices").get(0);
        assertThat(source.path("name").asText()).startsWith("Source");
        long read = source.path("metrics").path("write-records").asLong();
        long insertedSince = NEXT_ID.get() - idAtAlter;
        assertThat(read)
                .as(
                        "changes the restored job's source sent on; %d rows were inserted before"
                                + " the ALTER, %d since",
                        idAtAlter - 1, insertedSince)
                .isLessThanOrEqualTo(insertedSince);
    }

    private static String runningJob(String table) throws Exception {
        for (JsonNode job : flink("/jobs/overview").path("jobs")) {
            if (job.path("name").asText().startsWith("mt:default_catalog." + table + ":")
                    && job.path("state").asText().equals("RUNNING")) {
                return job.path("jid").asText();
            }
        }
        throw new AssertionError("no running job of " + table);
    }

    private static JsonNode flink(String path) throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(SERVICES.flinkRest() + path))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    private static int columns(String query) {
        return query.substring(0, query.indexOf(" FROM ")).split(",").length;
    }

    /** Reads the table every 100 ms through ddl-service, as a dashboard would. */
    private static final class Reader {
        private final String table;
        private final String key;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private final List<List<List<String>>> reads = new ArrayList<>();
        private final List<Instant> times = new ArrayList<>();
        private final List<String> failures = new ArrayList<>();

        Reader(String table, String key) {
            this.table = table;
            this.key = key;
            timer.scheduleWithFixedDelay(this::read, 0, 100, TimeUnit.MILLISECONDS);
        }

        private void read() {
            try {
                var rows = statements().rows("SELECT * FROM " + table + " ORDER BY " + key);
                synchronized (reads) {
                    reads.add(rows);
                    times.add(Instant.now());
                }
            } catch (RuntimeException e) {
                synchronized (reads) {
                    failures.add(e.getMessage());
                }
            }
        }

        void stop() throws InterruptedException {
            timer.shutdown();
            timer.awaitTermination(30, TimeUnit.SECONDS);
        }

        List<String> failures() {
            synchronized (reads) {
                return List.copyOf(failures);
            }
        }

        long readsSince(Instant moment) {
            synchronized (reads) {
                return times.stream().filter(time -> time.isAfter(moment)).count();
            }
        }

        List<Integer> columnCounts() {
            List<Integer> counts = new ArrayList<>();
            for (var rows : reads) {
                int columns = rows.isEmpty() ? 0 : rows.get(0).size();
                if (counts.isEmpty() || counts.get(counts.size() - 1) != columns) {
                    counts.add(columns);
                }
            }
            return counts;
        }

        /**
         * No read failed or was empty; no key twice in a read; every key a read saw is in every
         * later read, its numbers (columns 2 and on that are numbers) never lower than before.
         */
        void assertNothingLostOrRepeated() {
            assertThat(failures).as("%s: reads that failed", table).isEmpty();
            assertThat(reads).as("reads").hasSizeGreaterThan(10);
            Map<String, List<String>> seen = new HashMap<>();
            for (int i = 0; i < reads.size(); i++) {
                var rows = reads.get(i);
                assertThat(rows).as("%s: read %d", table, i).isNotEmpty();
                Map<String, List<String>> byKey = new HashMap<>();
                for (var row : rows) {
                    assertThat(byKey.put(row.get(0), row))
                            .as("%s: read %d: key %s twice", table, i, row.get(0))
                            .isNull();
                }
                for (var before : seen.entrySet()) {
                    List<String> now = byKey.get(before.getKey());
                    assertThat(now)
                            .as(
                                    "read %d: key %s, seen before as %s, is gone",
                                    i, before.getKey(), before.getValue())
                            .isNotNull();
                    for (int column = 1;
                            column < Math.min(now.size(), before.getValue().size());
                            column++) {
                        String was = before.getValue().get(column);
                        if (was != null && was.matches("-?\\d+") && now.get(column) != null) {
                            assertThat(Long.parseLong(now.get(column)))
                                    .as(
                                            "read %d: key %s column %d went back from %s",
                                            i, before.getKey(), column, was)
                                    .isGreaterThanOrEqualTo(Long.parseLong(was));
                        }
                    }
                }
                seen.putAll(byKey);
            }
        }
    }

    private static void awaitEqual(String table, String postgresQuery) {
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () ->
                                assertThat(sorted(statements().rows("SELECT * FROM " + table)))
                                        .isEqualTo(sorted(POSTGRES.rows(postgresQuery))));
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> copy = new ArrayList<>(rows);
        copy.sort((a, b) -> String.join("|", a).compareTo(String.join("|", b)));
        return copy;
    }

    private static void insertQuietly(int rows) {
        try {
            insert(rows);
        } catch (Exception e) {
            throw new IllegalStateException("inserting into PostgreSQL", e);
        }
    }

    private static void insert(int rows) throws Exception {
        try (Connection connection = POSTGRES.connect();
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO " + SCHEMA + ".items VALUES (?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                long id = NEXT_ID.getAndIncrement();
                insert.setLong(1, id);
                insert.setString(2, "category_" + (id * 7919 % CATEGORIES));
                insert.setLong(3, id * 31 % 100);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static String describe(String table, String property) {
        return statements().rows("DESCRIBE MATERIALIZED TABLE " + table).stream()
                .filter(row -> row.get(0).equals(property))
                .map(row -> row.get(1))
                .findFirst()
                .orElse(null);
    }

    private static Statements statements() {
        return SERVICES.statements();
    }
}
