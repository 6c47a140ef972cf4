package io.mtables.bench;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/bench reads}' last part: CREATEs timed alone and while SELECTs of the largest table
 * stream beside them through the wire (reads are off the catalog's lock).
 */
final class CreatesBesideReads {

    private static final String SCHEMA = "reads_bench";

    /** CREATEs timed per case: a p99 of 200 is their second slowest, not one outlier. */
    private static final int CREATES = 200;

    private static final int WARM_CREATES = 20;

    private CreatesBesideReads() {}

    /**
     * CREATEs timed alone, then while one client SELECTs the largest table over and over (the
     * issue's goal: within the p99 alone), then while two do.
     */
    static void measure(String ddl, int wirePort, String table, int largest) throws Exception {
        creates(ddl, "warm", WARM_CREATES); // the first CREATEs after the reads compile paths
        List<Long> alone = creates(ddl, "alone", CREATES);
        Map<String, List<Double>> chart = new LinkedHashMap<>();
        chart.put("alone", millis(alone));
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "%nCREATE TABLE (a source), %d each:%n  %-40s p50 %6.1f ms, p99 %6.1f ms",
                        CREATES,
                        "alone",
                        percentile(alone, 50),
                        percentile(alone, 99)));
        for (int streams = 1; streams <= 2; streams++) {
            AtomicBoolean reading = new AtomicBoolean(true);
            AtomicInteger selects = new AtomicInteger();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < streams; r++) {
                Thread reader =
                        new Thread(
                                () -> {
                                    try (Connection wire = ReadsBench.wire(wirePort)) {
                                        while (reading.get()) {
                                            ReadsBench.wireSelect(wire, "SELECT * FROM " + table);
                                            selects.incrementAndGet();
                                        }
                                    } catch (Exception e) {
                                        throw new IllegalStateException(e);
                                    }
                                });
                reader.start();
                readers.add(reader);
            }
            Thread.sleep(500); // reading
            List<Long> busy = creates(ddl, "beside" + streams, CREATES);
            reading.set(false);
            for (Thread reader : readers) {
                reader.join();
            }
            chart.put("beside " + streams + " SELECT" + (streams == 1 ? "" : "s"), millis(busy));
            System.out.println(
                    String.format(
                            Locale.ROOT,
                            "  %-40s p50 %6.1f ms, p99 %6.1f ms (p99 %.2fx alone)",
                            String.format(
                                    Locale.ROOT,
                                    "beside %d SELECT%s of %,d rows (%d done)",
                                    streams,
                                    streams == 1 ? "" : "s",
                                    largest,
                                    selects.get()),
                            percentile(busy, 50),
                            percentile(busy, 99),
                            percentile(busy, 99) / percentile(alone, 99)));
        }
        Charts.distribution(
                "reads-creates",
                "CREATE TABLE over REST, alone and beside SELECTs of "
                        + String.format(Locale.ROOT, "%,d", largest)
                        + " rows",
                "ms",
                chart);
    }

    private static List<Double> millis(List<Long> nanos) {
        return nanos.stream().map(n -> n / 1e6).toList();
    }

    /** The {@code p}th percentile of sorted {@code nanos}, in milliseconds (nearest rank). */
    private static double percentile(List<Long> nanos, int p) {
        int rank = (int) Math.ceil(p / 100.0 * nanos.size());
        return nanos.get(Math.max(rank, 1) - 1) / 1e6;
    }

    private static List<Long> creates(String ddl, String tag, int count) throws Exception {
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            Statements.post(
                    ddl,
                    "CREATE TABLE "
                            + SCHEMA
                            + "."
                            + tag
                            + "_"
                            + i
                            + " (a INT) WITH ('connector' = 'datagen')");
            nanos.add(System.nanoTime() - start);
        }
        Collections.sort(nanos);
        return nanos;
    }
}
