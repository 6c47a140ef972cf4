package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.LoadProgress;
import java.text.NumberFormat;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How far a streaming job is through its sources, and how long it has left: its share of the
 * records it has read (those it has read and those its sources have yet to read, as Kafka counts
 * them), and the time left at the rate it has read since its first report.
 *
 * @param latest the job's last report
 * @param percent read / (read + yet to read), 0 to 100; 100 once caught up
 * @param recordsPerSecond the rate since the job's first report; empty until two reports apart
 * @param timeLeft yet to read / rate; empty while the rate is unknown, or once caught up
 */
public record LoadEstimate(
        LoadProgress latest,
        double percent,
        Optional<Double> recordsPerSecond,
        Optional<Duration> timeLeft) {

    /**
     * @param first the first report of the same job (the latest itself when it is the only one)
     */
    public static LoadEstimate of(LoadProgress first, LoadProgress latest) {
        long read = latest.sourceRecordsRead();
        long behind = latest.sourceRecordsBehind();
        double percent =
                latest.caughtUp() || read + behind == 0 ? 100.0 : 100.0 * read / (read + behind);
        Optional<Double> rate = Optional.empty();
        if (first.jobId().equals(latest.jobId())) {
            long millis = Duration.between(first.reportedAt(), latest.reportedAt()).toMillis();
            long gained = read - first.sourceRecordsRead();
            if (millis > 0 && gained > 0) {
                rate = Optional.of(gained * 1000.0 / millis);
            }
        }
        Optional<Duration> left =
                latest.caughtUp()
                        ? Optional.empty()
                        : rate.map(r -> Duration.ofMillis(Math.round(behind * 1000.0 / r)));
        return new LoadEstimate(latest, percent, rate, left);
    }

    /** A streaming job's load through its sources, in words: how far, how fast, how long left. */
    public String inWords() {
        LoadProgress load = latest;
        var numbers = NumberFormat.getIntegerInstance(Locale.ROOT);
        if (load.caughtUp()) {
            return "caught up at "
                    + load.reportedAt()
                    + " (v"
                    + load.definitionVersion()
                    + "): "
                    + numbers.format(load.sourceRecordsRead())
                    + " source records read";
        }
        return "catching up (v"
                + load.definitionVersion()
                + "): "
                + String.format(Locale.ROOT, "%.1f", percent)
                + "% of its sources read, "
                + numbers.format(load.sourceRecordsBehind())
                + " source records to read, "
                + numbers.format(load.sourceRecordsRead())
                + " read so far"
                + recordsPerSecond
                        .map(rate -> " at " + numbers.format(Math.round(rate)) + " a second")
                        .orElse("")
                + timeLeft.map(left -> ": about " + words(left) + " left").orElse("")
                + ", as of "
                + load.reportedAt();
    }

    /** A time left in words: "42 s", "1 min 55 s", "2 h 5 min". */
    public static String words(Duration left) {
        long seconds = Math.max(1, Math.round(left.toMillis() / 1000.0));
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        long minutes = seconds / 60;
        return minutes / 60 + " h" + (minutes % 60 == 0 ? "" : " " + minutes % 60 + " min");
    }
}
