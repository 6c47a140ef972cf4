package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.RefreshProgress;
import java.text.NumberFormat;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How far a FULL table's running refresh is, and how long it has left: the share its sources have
 * read of what they read in all (when that is known), and the time left at the rate they have read
 * since the refresh was taken up.
 *
 * @param latest the refresh's last report
 * @param percent read / to read, 0 to 99.9 (the count of a table with a primary key may include
 *     rows a compaction has yet to merge, which the refresh reads once: a refresh ends short of
 *     100); empty when what it reads in all is not known
 * @param recordsPerSecond the rate since the refresh was taken up; empty before anything is read
 * @param timeLeft what is left to read / rate; empty when either is not known
 */
public record RefreshRunEstimate(
        RefreshProgress latest,
        Optional<Double> percent,
        Optional<Double> recordsPerSecond,
        Optional<Duration> timeLeft) {

    /** Below 100 until the refresh's end says it is done. */
    static final double MOST_WHILE_RUNNING = 99.9;

    public static RefreshRunEstimate of(RefreshProgress latest) {
        long read = latest.sourceRecordsRead();
        Long toRead = latest.sourceRecordsToRead();
        Optional<Double> percent =
                toRead == null
                        ? Optional.empty()
                        : Optional.of(
                                toRead == 0
                                        ? MOST_WHILE_RUNNING
                                        : Math.min(MOST_WHILE_RUNNING, 100.0 * read / toRead));
        long millis = Duration.between(latest.startedAt(), latest.reportedAt()).toMillis();
        Optional<Double> rate =
                millis > 0 && read > 0 ? Optional.of(read * 1000.0 / millis) : Optional.empty();
        Optional<Duration> left =
                toRead == null
                        ? Optional.empty()
                        : rate.map(
                                r ->
                                        Duration.ofMillis(
                                                Math.round(
                                                        Math.max(0, toRead - read) * 1000.0 / r)));
        return new RefreshRunEstimate(latest, percent, rate, left);
    }

    /** The running refresh in words: since when, how far, how fast, how long left. */
    public String inWords() {
        var numbers = NumberFormat.getIntegerInstance(Locale.ROOT);
        RefreshProgress run = latest;
        String far =
                percent.map(
                                p ->
                                        String.format(Locale.ROOT, "%.1f", p)
                                                + "% of the "
                                                + numbers.format(run.sourceRecordsToRead())
                                                + " source records it reads, "
                                                + numbers.format(run.sourceRecordsRead())
                                                + " read so far")
                        .orElse(
                                numbers.format(run.sourceRecordsRead())
                                        + " source records read so far (what it reads in all is"
                                        + " known only for a whole refresh of materialized tables"
                                        + " or of Kafka sources)");
        return "refreshing since "
                + run.startedAt()
                + " (v"
                + run.definitionVersion()
                + ", job "
                + run.jobId()
                + "): "
                + far
                + recordsPerSecond
                        .map(r -> " at " + numbers.format(Math.round(r)) + " a second")
                        .orElse("")
                + timeLeft.map(left -> ": about " + LoadEstimate.words(left) + " left").orElse("")
                + ", as of "
                + run.reportedAt();
    }
}
