package io.mtables.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The web console's pages (issue 51) as a user opens them in a real browser, with few tables and
 * then with many declared: each page's load time (a full load until it is drawn; p50 and p95 of
 * {@code loads}) and ddl-service's resident set before the first page and after the last. The
 * baseline is the same pages over {@value #FEW} tables in the same run.
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
        long before = residentKib(pid);
        List<String> few = pageLoads(ddl, loads, modules, script);
        long afterFew = residentKib(pid);
        System.out.printf(Locale.ROOT, "%nDeclaring %,d more tables...%n", tables - FEW);
        long start = System.nanoTime();
        declare(ddl, FEW, tables);
        System.out.printf(
                Locale.ROOT,
                "  %,d CREATEs in %.1f s%n",
                tables - FEW,
                (System.nanoTime() - start) / 1e9);
        long beforeMany = residentKib(pid);
        List<String> many = pageLoads(ddl, loads, modules, script);
        long afterMany = residentKib(pid);

        System.out.printf(
                Locale.ROOT,
                "%nConsole page loads, %d each (a full load until drawn), ms:%n  %-8s %22s %22s"
                        + " %12s%n",
                loads,
                "page",
                FEW + " tables p50 / p95",
                String.format(Locale.ROOT, "%,d tables p50 / p95", tables),
                "p95 ratio");
        for (int i = 0; i < few.size(); i++) {
            String[] a = few.get(i).split(" ");
            String[] b = many.get(i).split(" ");
            List<Long> fewMs = sorted(a[1]);
            List<Long> manyMs = sorted(b[1]);
            System.out.printf(
                    Locale.ROOT,
                    "  %-8s %10d / %9d %10d / %9d %11.2fx%n",
                    a[0],
                    percentile(fewMs, 50),
                    percentile(fewMs, 95),
                    percentile(manyMs, 50),
                    percentile(manyMs, 95),
                    (double) percentile(manyMs, 95) / Math.max(1, percentile(fewMs, 95)));
        }
        System.out.printf(
                Locale.ROOT,
                "%nddl-service resident set: %.1f MiB before the console's first page, %.1f after"
                        + " its loads over %d tables (%+.1f); %.1f before and %.1f after the loads"
                        + " over %,d tables (%+.1f)%n",
                before / 1024.0,
                afterFew / 1024.0,
                FEW,
                (afterFew - before) / 1024.0,
                beforeMany / 1024.0,
                afterMany / 1024.0,
                tables,
                (afterMany - beforeMany) / 1024.0);
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

    private static long residentKib(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for process " + pid);
    }
}
