package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.refresh.LoadProgress;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LoadEstimateTest {

    private static final Instant T = Instant.parse("2026-12-07T05:00:00Z");

    private static LoadProgress report(String job, long behind, long read, int second) {
        return new LoadProgress(
                "default_catalog.db.t", 1, job, behind, read, false, T.plusSeconds(second));
    }

    @Test
    void theShareReadAndTheTimeLeftAtTheRateSinceTheJobsFirstReport() {
        var estimate = LoadEstimate.of(report("j", 300, 100, 0), report("j", 100, 300, 20));
        assertThat(estimate.percent()).isEqualTo(75.0);
        assertThat(estimate.recordsPerSecond()).contains(10.0);
        assertThat(estimate.timeLeft()).contains(Duration.ofSeconds(10));
    }

    @Test
    void oneReportOrAnotherJobsFirstGivesNoRateAndCaughtUpIsWhole() {
        LoadProgress only = report("j", 100, 300, 20);
        assertThat(LoadEstimate.of(only, only).timeLeft()).isEmpty();
        assertThat(LoadEstimate.of(report("old", 0, 0, 0), only).recordsPerSecond()).isEmpty();
        var caughtUp =
                new LoadProgress("default_catalog.db.t", 1, "j", 0, 400, true, T.plusSeconds(30));
        assertThat(LoadEstimate.of(report("j", 300, 100, 0), caughtUp).percent()).isEqualTo(100);
        assertThat(LoadEstimate.of(report("j", 300, 100, 0), caughtUp).timeLeft()).isEmpty();
    }

    @Test
    void timeLeftInWords() {
        assertThat(LoadEstimate.words(Duration.ofMillis(400))).isEqualTo("1 s");
        assertThat(LoadEstimate.words(Duration.ofSeconds(115))).isEqualTo("1 min 55 s");
        assertThat(LoadEstimate.words(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(LoadEstimate.words(Duration.ofHours(3))).isEqualTo("3 h");
    }
}
