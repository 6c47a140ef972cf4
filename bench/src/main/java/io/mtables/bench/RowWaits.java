package io.mtables.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The rows of {@code bin/bench freshness} that became readable, each with its PostgreSQL commit
 * time, its Kafka send time and when it became readable, and the waits printed from them.
 */
final class RowWaits {

    /** One row's times, epoch milliseconds. */
    record Row(long id, long committed, long sent, long readable) {
        long capture() {
            return sent - committed;
        }

        long fromCommit() {
            return readable - committed;
        }

        long fromKafka() {
            return readable - sent;
        }
    }

    private static final long WINDOW_MS = 5_000;

    private final List<Row> rows;

    private RowWaits(List<Row> rows) {
        this.rows = rows;
    }

    /**
     * @param sent id to {commit ms, Kafka send ms}
     * @param readableAt id to when it became readable (guarded by itself)
     */
    static RowWaits of(Map<Long, long[]> sent, Map<Long, Long> readableAt) {
        List<Row> rows = new ArrayList<>();
        synchronized (readableAt) {
            sent.forEach(
                    (id, times) -> {
                        Long readable = readableAt.get(id);
                        if (readable != null) {
                            rows.add(new Row(id, times[0], times[1], readable));
                        }
                    });
        }
        return new RowWaits(rows);
    }

    RowWaits where(Predicate<Row> kept) {
        return new RowWaits(rows.stream().filter(kept).toList());
    }

    int size() {
        return rows.size();
    }

    List<Long> fromCommit() {
        return rows.stream().map(Row::fromCommit).toList();
    }

    List<Long> fromKafka() {
        return rows.stream().map(Row::fromKafka).toList();
    }

    /** Both waits' percentiles, one line each, indented. */
    void printWaits() {
        if (rows.isEmpty()) {
            return;
        }
        System.out.println("  PostgreSQL commit to readable: " + summary(fromCommit()));
        System.out.println("  Kafka send to readable:        " + summary(fromKafka()));
    }

    /**
     * The capture's and the Kafka-to-readable waits per 5 s of commit time from {@code from}:
     * whether a tail is one stall, a backlog, or spread over the run.
     */
    void printTimeline(long from, String heading) {
        TreeMap<Long, List<Row>> windows = new TreeMap<>();
        rows.forEach(
                row ->
                        windows.computeIfAbsent(row.committed() / WINDOW_MS, w -> new ArrayList<>())
                                .add(row));
        System.out.println(
                heading
                        + ", per "
                        + WINDOW_MS / 1000
                        + " s: the capture p50 / max | Kafka send to readable p50 / max (ms)");
        long first = from / WINDOW_MS;
        windows.forEach(
                (window, in) -> {
                    List<Long> capture = in.stream().map(Row::capture).sorted().toList();
                    List<Long> kafka = in.stream().map(Row::fromKafka).sorted().toList();
                    System.out.printf(
                            "  +%3d s: %5d / %5d | %5d / %5d%n",
                            (window - first) * WINDOW_MS / 1000,
                            capture.get(capture.size() / 2),
                            capture.get(capture.size() - 1),
                            kafka.get(kafka.size() / 2),
                            kafka.get(kafka.size() - 1));
                });
    }

    /** p50, p95, p99 and max of {@code millis}, which must not be empty. */
    static String summary(List<Long> millis) {
        List<Long> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        return String.format(
                "p50 %d ms, p95 %d ms, p99 %d ms, max %d ms",
                at(sorted, 50), at(sorted, 95), at(sorted, 99), sorted.get(sorted.size() - 1));
    }

    private static long at(List<Long> sorted, int p) {
        return sorted.get(
                Math.max(
                        0,
                        Math.min(
                                sorted.size() - 1,
                                (int) Math.ceil(p / 100.0 * sorted.size()) - 1)));
    }
}
