package io.mtables.oracle;

import io.mtables.client.MtablesClient;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Drives an example's seeded workload into PostgreSQL, waits until the pipeline is quiet, and
 * compares each materialized table with the same query run by PostgreSQL over the same rows,
 * printing every differing row.
 */
public final class Harness {

    /**
     * @param schema the PostgreSQL schema, also the Flink database of the example's tables
     * @param topicPrefix cdc-capture-service's topic prefix (mt.cdc.topic-prefix)
     * @param rate changes per second the workload aims at, bursts included
     * @param quietTimeout how long the tables may take to agree once the workload stopped
     */
    public record Settings(
            Example example,
            String schema,
            String topicPrefix,
            String bootstrapServers,
            long seed,
            Duration duration,
            int rate,
            Duration quietTimeout) {}

    /** One table's comparison. */
    public record CheckResult(
            Check check,
            int postgresRows,
            List<List<String>> onlyInMaterialized,
            List<List<String>> onlyInPostgres,
            Duration agreedAfter) {
        public boolean agrees() {
            return onlyInMaterialized.isEmpty() && onlyInPostgres.isEmpty();
        }
    }

    /** All tables' comparisons. */
    public record Report(List<CheckResult> results, int changes, Duration quietAfter) {
        public boolean agrees() {
            return results.stream().allMatch(CheckResult::agrees);
        }

        public int differingRows() {
            return results.stream()
                    .mapToInt(r -> r.onlyInMaterialized().size() + r.onlyInPostgres().size())
                    .sum();
        }
    }

    private final Settings settings;
    private final Postgres postgres;
    private final Statements statements;
    private final PrintStream out;

    public Harness(Settings settings, Postgres postgres, Statements statements, PrintStream out) {
        this.settings = settings;
        this.postgres = postgres;
        this.statements = statements;
        this.out = out;
    }

    /**
     * The example's PostgreSQL tables and sample rows; before cdc-capture-service starts, so its
     * publication has them.
     */
    public void preparePostgres() throws SQLException {
        postgres.execute(settings.example().postgresTables(settings.schema()));
        postgres.execute(settings.example().sampleRows(settings.schema()));
    }

    /**
     * The example's source and materialized tables, through ddl-service; again changes nothing. A
     * materialized table a user changed since (a column appended by ALTER ... AS, which the
     * example's query would remove) is left as it is, and said so: the demo never overrides a user.
     */
    public void declareTables() {
        for (String statement :
                settings.example()
                        .sourceTables(
                                settings.schema(),
                                settings.topicPrefix(),
                                settings.bootstrapServers())) {
            statements.send(statement);
        }
        for (String statement : settings.example().materializedTables(settings.schema())) {
            try {
                statements.send(statement);
            } catch (MtablesClient.StatementFailed refused) {
                if (!refused.reason().equals("IncompatibleSchemaChange")) {
                    throw refused;
                }
                out.printf(
                        "left as it is, changed since the example declared it: %s (%s)%n",
                        declared(statement), refused.detail());
            }
        }
    }

    private static final Pattern DECLARED_TABLE = Pattern.compile("MATERIALIZED TABLE\\s+(\\S+)");

    /** The table a CREATE statement names. */
    private static String declared(String statement) {
        var name = DECLARED_TABLE.matcher(statement);
        return name.find() ? name.group(1) : statement.strip().lines().findFirst().orElse("");
    }

    /**
     * Runs the workload for the configured duration, calls {@code midway} halfway through (to kill
     * a service, say), then waits for agreement.
     */
    public Report run(Runnable midway) throws SQLException, InterruptedException {
        int changes = drive(midway);
        return awaitAgreement(changes);
    }

    /**
     * Runs the workload for the configured duration, calls {@code midway} halfway through, and
     * returns how many changes it committed; for a caller that has more to do (faults to finish
     * injecting) before it waits for agreement.
     */
    public int drive(Runnable midway) throws SQLException, InterruptedException {
        Random random = new Random(settings.seed());
        Instant start = Instant.now();
        Instant half = start.plus(settings.duration().dividedBy(2));
        Instant end = start.plus(settings.duration());
        Instant nextReport = start.plusSeconds(10);
        boolean midwayDone = false;
        int changes = 0;
        Connection connection = postgres.connect();
        try {
            Workload workload = settings.example().workload(settings.schema(), random, connection);
            out.printf(
                    "driving %s (seed %d) for %s at about %d changes/s%n",
                    settings.example().name(),
                    settings.seed(),
                    words(settings.duration()),
                    settings.rate());
            while (Instant.now().isBefore(end)) {
                int done;
                try {
                    done = workload.step(connection);
                } catch (SQLException e) {
                    if (!lost(connection, e)) {
                        throw e;
                    }
                    // PostgreSQL went away (a crash, a restart): the transaction in flight is
                    // rolled back or committed, so the workload reads its rows again.
                    out.printf(
                            "  PostgreSQL connection lost (%s); connecting again%n",
                            e.getMessage());
                    connection.close();
                    connection = reconnect();
                    workload = settings.example().workload(settings.schema(), random, connection);
                    continue;
                }
                changes += done;
                Thread.sleep(Math.max(0, done * 1000L / Math.max(1, settings.rate())));
                if (!midwayDone && Instant.now().isAfter(half)) {
                    midwayDone = true;
                    midway.run();
                }
                if (Instant.now().isAfter(nextReport)) {
                    out.printf("  %d changes committed%n", changes);
                    nextReport = nextReport.plusSeconds(10);
                }
            }
            workload.finish(connection);
        } finally {
            connection.close();
        }
        out.printf(
                "workload done: %d changes in %s%n",
                changes, words(Duration.between(start, Instant.now())));
        printTime("workload", start);
        return changes;
    }

    /** Whether {@code e} means the connection is gone (SQLSTATE class 08, or 57P: shut down). */
    private static boolean lost(Connection connection, SQLException e) throws SQLException {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("08") || state.startsWith("57P") || !connection.isValid(2);
    }

    /** A new connection, tried every second for up to {@link #RECONNECT_PATIENCE}. */
    private Connection reconnect() throws SQLException, InterruptedException {
        Instant until = Instant.now().plus(RECONNECT_PATIENCE);
        while (true) {
            try {
                return postgres.connect();
            } catch (SQLException e) {
                if (Instant.now().isAfter(until)) {
                    throw e;
                }
                Thread.sleep(1000);
            }
        }
    }

    private static final Duration RECONNECT_PATIENCE = Duration.ofMinutes(2);

    /**
     * Compares until every table agrees with PostgreSQL or the quiet timeout passes; prints the
     * outcome. A FULL table is refreshed (ALTER ... REFRESH) once the tables before it agree, since
     * it reads them, and again every {@link #REFRESH_AGAIN} while it does not agree. The workload
     * has stopped, so a table that agrees keeps agreeing: only the others are compared again (at
     * TPC-H scale factor 0.1 one PostgreSQL query takes a minute), and each table's time to agree
     * is kept.
     */
    public Report awaitAgreement(int changes) throws SQLException, InterruptedException {
        Instant start = Instant.now();
        Instant deadline = start.plus(settings.quietTimeout());
        Map<String, Instant> refreshed = new HashMap<>();
        List<CheckResult> results = compare(List.of(), start);
        while (!results.stream().allMatch(CheckResult::agrees)
                && Instant.now().isBefore(deadline)) {
            boolean upstreamAgrees = true;
            for (CheckResult result : results) {
                Check check = result.check();
                Instant last = refreshed.get(check.table());
                if (check.refreshFirst()
                        && !result.agrees()
                        && upstreamAgrees
                        && (last == null || Instant.now().isAfter(last.plus(REFRESH_AGAIN)))) {
                    statements.send("ALTER MATERIALIZED TABLE " + check.table() + " REFRESH");
                    refreshed.put(check.table(), Instant.now());
                }
                upstreamAgrees &= result.agrees();
            }
            Thread.sleep(2000);
            results = compare(results, start);
        }
        Report report = new Report(results, changes, Duration.between(start, Instant.now()));
        print(report);
        printTime("awaiting agreement", start);
        return report;
    }

    /**
     * A FULL table that still differs this long after its refresh was asked for is refreshed again.
     */
    private static final Duration REFRESH_AGAIN = Duration.ofSeconds(30);

    /**
     * Every check's result: those that agreed in {@code earlier} as they were, the others compared
     * now.
     */
    private List<CheckResult> compare(List<CheckResult> earlier, Instant start)
            throws SQLException {
        List<CheckResult> results = new ArrayList<>();
        for (Check check : settings.example().checks(settings.schema())) {
            var agreed =
                    earlier.stream()
                            .filter(r -> r.check().table().equals(check.table()) && r.agrees())
                            .findFirst();
            if (agreed.isPresent()) {
                results.add(agreed.get());
                continue;
            }
            List<List<String>> expected = postgres.rows(check.postgresQuery());
            List<List<String>> actual;
            try {
                actual = statements.rows(check.materializedQuery());
            } catch (MtablesClient.StatementFailed notReadable) {
                actual = List.of(); // not created or not written yet
            }
            results.add(
                    new CheckResult(
                            check,
                            expected.size(),
                            Rows.missingFrom(expected, actual),
                            Rows.missingFrom(actual, expected),
                            Duration.between(start, Instant.now())));
        }
        return results;
    }

    private void print(Report report) {
        for (CheckResult result : report.results()) {
            if (result.agrees()) {
                out.printf(
                        "%s: equal to PostgreSQL (%d rows), %s after the workload%n",
                        result.check().table(), result.postgresRows(), words(result.agreedAfter()));
                continue;
            }
            out.printf(
                    "%s: %d row(s) differ from PostgreSQL (%d rows there)%n",
                    result.check().table(),
                    result.onlyInMaterialized().size() + result.onlyInPostgres().size(),
                    result.postgresRows());
            result.onlyInMaterialized().stream()
                    .sorted(ROWS)
                    .forEach(row -> out.println("  only in the materialized table: " + row));
            result.onlyInPostgres().stream()
                    .sorted(ROWS)
                    .forEach(row -> out.println("  only in PostgreSQL:             " + row));
        }
        out.printf(
                "%s after %d changes: %d differing row(s); compared for %s after the workload%n",
                report.agrees() ? "AGREES" : "DIFFERS",
                report.changes(),
                report.differingRows(),
                words(report.quietAfter()));
    }

    private static final Comparator<List<String>> ROWS = Comparator.comparing(Object::toString);

    /**
     * How long a phase took, in the form bin/lib/test-report.sh adds up per test class: {@code
     * [time] <phase>: <seconds> s}.
     */
    private void printTime(String phase, Instant start) {
        out.printf(
                Locale.ROOT,
                "[time] %s: %.1f s%n",
                phase,
                Duration.between(start, Instant.now()).toMillis() / 1000.0);
    }

    private static String words(Duration duration) {
        return duration.toSeconds() + " s";
    }
}
