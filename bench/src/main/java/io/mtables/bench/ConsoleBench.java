package io.mtables.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The web console's pages (issue 51) as a user opens them in a real browser, with few tables and
 * then with many declared: each page's load time (a full load until it is drawn, and reached from
 * another page of the console; p50 and p95 of {@code loads}) and what the console adds to
 * ddl-service's resident set beyond the statements its pages run (sent alone over REST first, as
 * often). The baseline of the loads is the same pages over {@value #FEW} tables in the same run.
 *
 * <p>Arguments: ddl-service URL, tables, loads per page, ddl-service's process id, the directory of
 * node_modules holding playwright-core, the node script.
 */
public final class ConsoleBench {

    private static final String SCHEMA = "console_bench";
    private static final int FEW = 10;

    private ConsoleBench() {}

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        int tables = Integer.parseInt(args[1]);
        int loads = Integer.parseInt(args[2]);
        long pid = Long.parseLong(args[3]);
        String modules = args[4];
        String script = args[5];

        Statements.post(
                ddl,
                "CREATE TABLE "
                        + SCHEMA
                        + ".src (id BIGINT, v STRING) WITH ('connector' = 'datagen')");
        declare(ddl, 0, FEW);
        // The baseline of the console's memory: the statements its pages run, as a client sends
        // them over REST, as often as the loads will; what the loads add beyond it is the
        // console's.
        statementsAlone(ddl, loads);
        long[] before = memory(pid);
        List<String> few = pageLoads(ddl, loads, modules, script);
        long[] afterFew = memory(pid);
        System.out.printf(Locale.ROOT, "%nDeclaring %,d more tables...%n", tables - FEW);
        long start = System.nanoTime();
        declare(ddl, FEW, tables);
        System.out.printf(
                Locale.ROOT,
                "  %,d CREATEs in %.1f s%n",
                tables - FEW,
                (System.nanoTime() - start) / 1e9);
        Map<String, List<Long>> statementsMany = statementsAlone(ddl, loads);
        long[] beforeMany = memory(pid);
        List<String> many = pageLoads(ddl, loads, modules, script);
        long[] afterMany = memory(pid);

        System.out.printf(
                Locale.ROOT,
                "%nConsole page loads, %d each (a full load until drawn; -nav: reached from another"
                        + " page of the console), ms:%n  %-9s %22s %22s"
                        + " %12s%n",
                loads,
                "page",
                FEW + " tables p50 / p95",
                String.format(Locale.ROOT, "%,d tables p50 / p95", tables),
                "p95 ratio");
        Map<String, List<Long>> fewChart = new LinkedHashMap<>();
        Map<String, List<Long>> manyChart = new LinkedHashMap<>();
        for (int i = 0; i < few.size(); i++) {
            String[] a = few.get(i).split(" ");
            String[] b = many.get(i).split(" ");
            List<Long> fewMs = sorted(a[1]);
            List<Long> manyMs = sorted(b[1]);
            fewChart.put(a[0], fewMs);
            manyChart.put(a[0], manyMs);
            System.out.printf(
                    Locale.ROOT,
                    "  %-9s %10d / %9d %10d / %9d %11.2fx%n",
                    a[0],
                    percentile(fewMs, 50),
                    percentile(fewMs, 95),
                    percentile(manyMs, 50),
                    percentile(manyMs, 95),
                    (double) percentile(manyMs, 95) / Math.max(1, percentile(fewMs, 95)));
        }
        printStatements(statementsMany, tables);
        Charts.distribution(
                "console-page-loads-" + FEW,
                "Console page loads with " + FEW + " tables (full loads; -nav: from another page)",
                "ms",
                fewChart);
        Charts.distribution(
                "console-page-loads-" + tables,
                String.format(
                        Locale.ROOT,
                        "Console page loads with %,d tables (full loads; -nav: from another page)",
                        tables),
                "ms",
                manyChart);
        System.out.printf(
                Locale.ROOT,
                "%nWhat the console adds to ddl-service beyond the pages' statements sent alone"
                    + " over REST (its heap committed in full at the start), resident set outside"
                    + " the heap + live heap after a full GC, MiB:%n  %,5d tables: resident %.1f ->"
                    + " %.1f (%+.1f), live heap %.1f -> %.1f (%+.1f): %+.1f in all%n  %,5d tables:"
                    + " resident %.1f -> %.1f (%+.1f), live heap %.1f -> %.1f (%+.1f): %+.1f in"
                    + " all%n  goal: at most +30 in all%n",
                FEW,
                before[0] / 1024.0,
                afterFew[0] / 1024.0,
                (afterFew[0] - before[0]) / 1024.0,
                before[1] / 1024.0,
                afterFew[1] / 1024.0,
                (afterFew[1] - before[1]) / 1024.0,
                (afterFew[0] - before[0] + afterFew[1] - before[1]) / 1024.0,
                tables,
                beforeMany[0] / 1024.0,
                afterMany[0] / 1024.0,
                (afterMany[0] - beforeMany[0]) / 1024.0,
                beforeMany[1] / 1024.0,
                afterMany[1] / 1024.0,
                (afterMany[1] - beforeMany[1]) / 1024.0,
                (afterMany[0] - beforeMany[0] + afterMany[1] - beforeMany[1]) / 1024.0);
    }

    /**
     * The statements the console's four pages run, each {@code times}, sent over REST as any client
     * would (no browser, no files, no event stream).
     */
    private static Map<String, List<Long>> statementsAlone(String ddl, int times) {
        String table = "default_catalog." + SCHEMA + ".t_0";
        List<String> statements =
                List.of(
                        "SHOW MATERIALIZED TABLES",
                        "SELECT table_name, refresh_mode, freshness, status, measured_lag,"
                                + " last_refresh, next_refresh, load_progress, rebuild_progress,"
                                + " refresh_progress, snapshot_progress FROM"
                                + " information_schema.materialized_tables ORDER BY table_name",
                        "DESCRIBE MATERIALIZED TABLE " + table,
                        "SELECT table_name, freshness, status, measured_lag, load_progress,"
                                + " load_time_left, rebuild_progress, rebuild_time_left,"
                                + " refresh_progress, refresh_time_left, snapshot_progress,"
                                + " snapshot_time_left FROM information_schema.materialized_tables",
                        "SELECT refresh_trigger, state, state_message, data_timestamp, started_at,"
                                + " finished_at, rows_written, freshness_met FROM"
                                + " information_schema.refresh_history WHERE table_name = '"
                                + table
                                + "' ORDER BY finished_at DESC LIMIT 200",
                        "SELECT table_name, upstream_table, upstream_kind FROM"
                                + " information_schema.table_dependencies",
                        "SELECT d.table_name, d.upstream_table, d.upstream_kind, m.freshness,"
                                + " m.status, m.measured_lag FROM"
                                + " information_schema.table_dependencies d LEFT JOIN"
                                + " information_schema.materialized_tables m ON m.table_name ="
                                + " d.table_name",
                        "DESCRIBE default_catalog." + SCHEMA + ".src");
        Map<String, List<Long>> millis = new LinkedHashMap<>();
        for (int i = 0; i < times; i++) {
            for (String statement : statements) {
                long start = System.nanoTime();
                Statements.post(ddl, statement);
                millis.computeIfAbsent(statement, s -> new ArrayList<>())
                        .add((System.nanoTime() - start) / 1_000_000);
            }
        }
        return millis;
    }

    /** Each statement's p50 and p95 over REST: the server's share of a page's load. */
    private static void printStatements(Map<String, List<Long>> millis, int tables) {
        System.out.printf(
                Locale.ROOT,
                "%nThe pages' statements alone over REST at %,d tables, ms:%n",
                tables);
        millis.forEach(
                (statement, taken) -> {
                    List<Long> sorted = new ArrayList<>(taken);
                    Collections.sort(sorted);
                    System.out.printf(
                            Locale.ROOT,
                            "  p50 %4d, p95 %4d  %s%n",
                            percentile(sorted, 50),
                            percentile(sorted, 95),
                            statement.length() > 90 ? statement.substring(0, 89) + "…" : statement);
                });
    }

    /** Materialized tables {@code from} to {@code to} - 1, each over the source. */
    private static void declare(String ddl, int from, int to) {
        for (int i = from; i < to; i++) {
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE "
                            + SCHEMA
                            + ".t_"
                            + i
                            + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id, v FROM "
                            + SCHEMA
                            + ".src");
        }
    }

    private static List<String> pageLoads(String ddl, int loads, String modules, String script)
            throws Exception {
        Process node =
                new ProcessBuilder(
                                "node",
                                script,
                                ddl + "/console/",
                                Statements.token(),
                                String.valueOf(loads),
                                "default_catalog." + SCHEMA + ".t_0",
                                "default_catalog." + SCHEMA + ".src",
                                modules)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        }
        if (!node.waitFor(10, TimeUnit.MINUTES) || node.exitValue() != 0) {
            throw new IllegalStateException("the browser's loads failed: " + lines);
        }
        return lines;
    }

    private static List<Long> sorted(String csv) {
        List<Long> ms =
                new ArrayList<>(Arrays.stream(csv.split(",")).map(Long::parseLong).toList());
        Collections.sort(ms);
        return ms;
    }

    private static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(rank, 1) - 1);
    }

    /** After a full GC: the resident set and the live heap, KiB. */
    private static long[] memory(long pid) throws Exception {
        jcmd(pid, "GC.run");
        long used = -1;
        for (String line : jcmd(pid, "GC.heap_info")) {
            var m = java.util.regex.Pattern.compile("total \\d+K, used (\\d+)K").matcher(line);
            if (m.find()) {
                used = Long.parseLong(m.group(1));
                break;
            }
        }
        if (used < 0) {
            throw new IllegalStateException("no heap figures from jcmd " + pid + " GC.heap_info");
        }
        return new long[] {residentKib(pid), used};
    }

    private static List<String> jcmd(long pid, String command) throws Exception {
        Process jcmd = new ProcessBuilder("jcmd", String.valueOf(pid), command).start();
        List<String> lines;
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(jcmd.getInputStream(), StandardCharsets.UTF_8))) {
            lines = out.lines().toList();
        }
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " " + command + " failed: " + lines);
        }
        return lines;
    }

    private static long residentKib(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for process " + pid);
    }
}
