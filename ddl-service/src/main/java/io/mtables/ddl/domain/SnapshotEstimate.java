package io.mtables.ddl.domain;

import io.mtables.schemas.capture.CaptureSnapshot;
import java.text.NumberFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How far a snapshot of the capture is, over every table it reads (they are committed together):
 * the rows read against PostgreSQL's estimates, and the time left at the rate since it began.
 *
 * @param reports the latest report of each table of the snapshot
 * @param waitedOn the tables of it whose rows the asking table reads
 * @param rowsCaptured rows read so far, all tables
 * @param rowsEstimated PostgreSQL's estimate of them all; empty when a table has none
 * @param percent read / estimated, 0 to 99.9 (an estimate can be short; the snapshot's end says
 *     done); empty without an estimate
 * @param rowsPerSecond the rate since it began; empty before anything is read
 * @param timeLeft what is left / rate; empty when either is not known
 */
public record SnapshotEstimate(
        List<CaptureSnapshot> reports,
        List<String> waitedOn,
        long rowsCaptured,
        Optional<Long> rowsEstimated,
        Optional<Double> percent,
        Optional<Double> rowsPerSecond,
        Optional<Duration> timeLeft) {

    static SnapshotEstimate of(List<CaptureSnapshot> reports, Collection<String> topics) {
        long captured = reports.stream().mapToLong(CaptureSnapshot::rowsCaptured).sum();
        Optional<Long> estimated =
                reports.stream().anyMatch(r -> r.rowsEstimated() == null)
                        ? Optional.empty()
                        : Optional.of(
                                reports.stream().mapToLong(CaptureSnapshot::rowsEstimated).sum());
        Optional<Double> percent =
                estimated.map(
                        total ->
                                total == 0
                                        ? RefreshRunEstimate.MOST_WHILE_RUNNING
                                        : Math.min(
                                                RefreshRunEstimate.MOST_WHILE_RUNNING,
                                                100.0 * captured / total));
        Instant started = reports.get(0).startedAt();
        Instant reported =
                reports.stream()
                        .map(CaptureSnapshot::reportedAt)
                        .max(Comparator.naturalOrder())
                        .orElse(started);
        long millis = Duration.between(started, reported).toMillis();
        Optional<Double> rate =
                millis > 0 && captured > 0
                        ? Optional.of(captured * 1000.0 / millis)
                        : Optional.empty();
        Optional<Duration> left =
                estimated.flatMap(
                        total ->
                                rate.map(
                                        r ->
                                                Duration.ofMillis(
                                                        Math.round(
                                                                Math.max(0, total - captured)
                                                                        * 1000.0
                                                                        / r))));
        List<String> waitedOn =
                reports.stream()
                        .filter(r -> topics.contains(r.topic()))
                        .map(CaptureSnapshot::table)
                        .sorted()
                        .toList();
        return new SnapshotEstimate(
                List.copyOf(reports), waitedOn, captured, estimated, percent, rate, left);
    }

    /** The snapshot in words: which tables, how far, how fast, how long left. */
    public String inWords() {
        var numbers = NumberFormat.getIntegerInstance(Locale.ROOT);
        int others = reports.size() - waitedOn.size();
        String far =
                rowsEstimated
                        .map(
                                total ->
                                        numbers.format(rowsCaptured)
                                                + " of about "
                                                + numbers.format(total)
                                                + " rows read (PostgreSQL's estimate), "
                                                + String.format(
                                                        Locale.ROOT, "%.1f%%", percent.orElse(0.0)))
                        .orElse(
                                numbers.format(rowsCaptured)
                                        + " rows read (PostgreSQL has no estimate of a table never"
                                        + " analyzed)");
        Instant reported =
                reports.stream()
                        .map(CaptureSnapshot::reportedAt)
                        .max(Comparator.naturalOrder())
                        .orElseThrow();
        return "the capture is snapshotting "
                + String.join(", ", waitedOn)
                + (others > 0
                        ? " (and " + others + " more table" + (others == 1 ? "" : "s") + ")"
                        : "")
                + " since "
                + reports.get(0).startedAt()
                + ": "
                + far
                + rowsPerSecond
                        .map(r -> " at " + numbers.format(Math.round(r)) + " a second")
                        .orElse("")
                + timeLeft.map(left -> ": about " + LoadEstimate.words(left) + " left").orElse("")
                + "; its rows reach Kafka together when it ends, as of "
                + reported;
    }
}
