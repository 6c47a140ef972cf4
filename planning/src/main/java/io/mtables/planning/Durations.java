package io.mtables.planning;

import io.mtables.schemas.plan.RefreshPlan.Freshness;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Freshness values as durations and as words. */
final class Durations {

    private Durations() {}

    static Duration of(Freshness freshness) {
        return Duration.of(freshness.interval(), ChronoUnit.valueOf(freshness.unit() + "S"));
    }

    /** The largest whole unit: 90 s stays 90 s, 120 s is 2 min. */
    static Freshness freshnessOf(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return new Freshness((int) (seconds / 86_400), "DAY");
        }
        if (seconds % 3_600 == 0) {
            return new Freshness((int) (seconds / 3_600), "HOUR");
        }
        if (seconds % 60 == 0) {
            return new Freshness((int) (seconds / 60), "MINUTE");
        }
        return new Freshness((int) seconds, "SECOND");
    }

    /** "5 min", "1 h", "30 s", "1 day", "2 days". */
    static String words(Duration duration) {
        Freshness f = freshnessOf(duration);
        return switch (f.unit()) {
            case "DAY" -> f.interval() + (f.interval() == 1 ? " day" : " days");
            case "HOUR" -> f.interval() + " h";
            case "MINUTE" -> f.interval() + " min";
            default -> f.interval() + " s";
        };
    }

    /** A duration in words, keeping fractions of a second (2.5 s) and of a minute (2.5 min). */
    static String precise(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 60_000 == 0 || millis % 1000 == 0 && millis < 60_000) {
            return words(duration);
        }
        if (millis >= 60_000 && millis % 30_000 == 0) {
            return BigDecimal.valueOf(millis)
                            .divide(BigDecimal.valueOf(60_000))
                            .stripTrailingZeros()
                            .toPlainString()
                    + " min";
        }
        return BigDecimal.valueOf(millis)
                        .divide(BigDecimal.valueOf(1000))
                        .stripTrailingZeros()
                        .toPlainString()
                + " s";
    }
}
