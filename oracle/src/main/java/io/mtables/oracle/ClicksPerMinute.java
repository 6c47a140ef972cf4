package io.mtables.oracle;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * Window aggregations in CONTINUOUS tables: clicks per event-time minute (TUMBLE), per two minutes
 * starting every minute (HOP) and per minute and two minutes so far within each two (CUMULATE),
 * over a change stream with a watermark 5 seconds behind the newest click. A window's row is
 * written once, when the watermark passes its end, and is final: a change to a click of a closed
 * window comes too late. The workload therefore runs on an event-time clock of its own (one second
 * per change, continuing after the newest click in the table), changes or deletes only clicks at
 * most three seconds old, and ends with a click 70 seconds later, so every window of the run
 * closes. The PostgreSQL query counts the closed windows only.
 */
final class ClicksPerMinute implements Example {

    @Override
    public String name() {
        return "clicks-per-minute";
    }

    @Override
    public List<String> postgresTables(String schema) {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".clicks (id BIGINT PRIMARY KEY, amount NUMERIC(10, 2) NOT NULL, ts"
                        + " TIMESTAMP(3) NOT NULL)");
    }

    /** Sample clicks: one a second, the newest stored first (see {@link #sampleRows}). */
    static final int SAMPLE_CLICKS = 20_000;

    /**
     * Stored newest first, out of event-time order as a table with a history of updates is: the
     * capture's snapshot reads them in that order, and the windows must still count every one of
     * them. Enough of them that reading them takes the job longer than Flink's watermark interval
     * (200 ms): a watermark that ran ahead of the snapshot would drop the rest as late.
     */
    @Override
    public List<String> sampleRows(String schema) {
        return List.of(
                "INSERT INTO "
                        + schema
                        + ".clicks SELECT g, (g % 100) / 10.0, TIMESTAMP '2026-11-29 00:00:00' + ("
                        + SAMPLE_CLICKS
                        + " + 1 - g) * INTERVAL '1 second' FROM generate_series(1, "
                        + SAMPLE_CLICKS
                        + ") AS g ON CONFLICT DO NOTHING");
    }

    @Override
    public List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers) {
        return List.of(
                UsersDomains.source(
                        schema,
                        "clicks",
                        "id BIGINT NOT NULL, amount DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR"
                                + " ts AS ts - INTERVAL '5' SECOND",
                        topicPrefix,
                        bootstrapServers));
    }

    @Override
    public List<String> materializedTables(String schema) {
        return List.of(
                window(
                        schema,
                        "clicks_per_minute",
                        "TUMBLE(TABLE " + schema + ".clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)"),
                // Two minutes long, one new every minute: each click counts in two windows.
                window(
                        schema,
                        "clicks_hopping",
                        "HOP(TABLE "
                                + schema
                                + ".clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2'"
                                + " MINUTE)"),
                // Within each two minutes, the first minute so far and both minutes so far.
                window(
                        schema,
                        "clicks_cumulating",
                        "CUMULATE(TABLE "
                                + schema
                                + ".clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2'"
                                + " MINUTE)"));
    }

    private static String window(String schema, String table, String windowing) {
        return "CREATE OR ALTER MATERIALIZED TABLE "
                + schema
                + "."
                + table
                + " FRESHNESS = INTERVAL '5' SECOND AS SELECT window_start, window_end, COUNT(*) AS"
                + " clicks, SUM(amount) AS amount FROM TABLE("
                + windowing
                + ") GROUP BY window_start, window_end";
    }

    /**
     * Each window's rows in PostgreSQL: a click with the (start, end) of every window it is in,
     * closed windows only.
     */
    @Override
    public List<Check> checks(String schema) {
        String minute = "date_trunc('minute', ts)";
        String twoMinutes =
                "(date_trunc('hour', ts) + floor(extract(minute FROM ts) / 2) * interval '2"
                        + " minute')";
        return List.of(
                check(
                        schema,
                        "clicks_per_minute",
                        "VALUES (" + minute + ", " + minute + " + interval '1 minute')"),
                check(
                        schema,
                        "clicks_hopping",
                        "VALUES ("
                                + minute
                                + ", "
                                + minute
                                + " + interval '2 minute'), ("
                                + minute
                                + " - interval '1 minute', "
                                + minute
                                + " + interval '1 minute')"),
                check(
                        schema,
                        "clicks_cumulating",
                        "SELECT "
                                + twoMinutes
                                + ", "
                                + twoMinutes
                                + " + interval '1 minute' WHERE ts < "
                                + twoMinutes
                                + " + interval '1 minute'"
                                + " UNION ALL SELECT "
                                + twoMinutes
                                + ", "
                                + twoMinutes
                                + " + interval '2 minute'"));
    }

    private static Check check(String schema, String table, String windowsOfAClick) {
        return new Check(
                schema + "." + table,
                "SELECT window_start, window_end, clicks, amount FROM " + schema + "." + table,
                "SELECT w.window_start, w.window_end, COUNT(*), SUM(c.amount) FROM "
                        + schema
                        + ".clicks AS c"
                        + " CROSS JOIN LATERAL ("
                        + windowsOfAClick
                        + ") AS w (window_start, window_end)"
                        + " WHERE w.window_end <= (SELECT max(ts) - interval '5 second' FROM "
                        + schema
                        + ".clicks) GROUP BY 1, 2",
                false);
    }

    @Override
    public Workload workload(String schema, Random random, Connection postgres)
            throws SQLException {
        try (Statement statement = postgres.createStatement();
                ResultSet row =
                        statement.executeQuery(
                                "SELECT COALESCE(max(id), 0), COALESCE(max(ts), TIMESTAMP"
                                        + " '2026-11-29 00:00:00') FROM "
                                        + schema
                                        + ".clicks")) {
            row.next();
            return new Clicks(
                    schema,
                    random,
                    row.getLong(1) + 1,
                    row.getTimestamp(2).toLocalDateTime().withNano(0).plusMinutes(1));
        }
    }

    /** Clicks on an event-time clock of their own; changes only to clicks of still open windows. */
    private static final class Clicks extends SeededChanges {
        private static final long CHANGEABLE_SECONDS = 3;

        private final String schema;
        private final Deque<long[]> recent =
                new ArrayDeque<>(); // {id, second of the clock it was made at}
        private long next;
        private LocalDateTime clock;
        private long second;

        Clicks(String schema, Random random, long next, LocalDateTime clock) {
            super(random);
            this.schema = schema;
            this.next = next;
            this.clock = clock;
        }

        @Override
        protected void change(Connection postgres) throws SQLException {
            clock = clock.plusSeconds(1);
            second++;
            while (!recent.isEmpty() && recent.peekFirst()[1] < second - CHANGEABLE_SECONDS) {
                recent.removeFirst();
            }
            int dice = random.nextInt(100);
            if (dice < 70 || recent.isEmpty()) {
                long id = next++;
                insert(postgres, id, clock);
                recent.addLast(new long[] {id, second});
            } else {
                List<long[]> open = new ArrayList<>(recent);
                long[] click = open.get(random.nextInt(open.size()));
                if (dice < 85) {
                    update(
                            postgres,
                            "UPDATE " + schema + ".clicks SET amount = ? WHERE id = ?",
                            amount(),
                            click[0]);
                } else {
                    update(postgres, "DELETE FROM " + schema + ".clicks WHERE id = ?", click[0]);
                    recent.remove(click);
                }
            }
        }

        /** A click 70 seconds on: the watermark passes the end of every window of the run. */
        @Override
        public void finish(Connection postgres) throws SQLException {
            insert(postgres, next++, clock.plusSeconds(70));
        }

        private void insert(Connection postgres, long id, LocalDateTime at) throws SQLException {
            update(
                    postgres,
                    "INSERT INTO " + schema + ".clicks VALUES (?, ?, ?)",
                    id,
                    amount(),
                    Timestamp.valueOf(at));
        }

        private BigDecimal amount() {
            return BigDecimal.valueOf(1 + random.nextInt(10_000), 2);
        }
    }
}
