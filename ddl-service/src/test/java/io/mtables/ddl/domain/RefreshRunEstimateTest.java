package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.refresh.RefreshProgress;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RefreshRunEstimateTest {

    private static final Instant T = Instant.parse("2026-12-07T05:00:00Z");

    private static RefreshRunEstimate at(long read, Long toRead, int second) {
        return RefreshRunEstimate.of(
                new RefreshProgress(
                        "default_catalog.db.t",
                        1,
                        "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f",
                        read,
                        toRead,
                        T,
                        T.plusSeconds(second)));
    }

    @Test
    void theShareReadAndTheTimeLeftAtTheRateSinceTheRefreshWasTakenUp() {
        var estimate = at(250, 1_000L, 5);
        assertThat(estimate.percent()).contains(25.0);
        assertThat(estimate.recordsPerSecond()).contains(50.0);
        assertThat(estimate.timeLeft()).contains(Duration.ofSeconds(15));
    }

    @Test
    void aRunningRefreshIsNeverDoneAndCountsOfUnmergedRowsLeaveNoNegativeTime() {
        var past = at(1_200, 1_000L, 10);
        assertThat(past.percent()).contains(99.9);
        assertThat(past.timeLeft()).contains(Duration.ZERO);
        assertThat(at(0, 0L, 1).percent()).contains(99.9);
    }

    @Test
    void withoutATotalOnlyWhatWasReadAndHowFastIsSaid() {
        var estimate = at(1_200, null, 4);
        assertThat(estimate.percent()).isEmpty();
        assertThat(estimate.timeLeft()).isEmpty();
        assertThat(estimate.inWords())
                .isEqualTo(
                        "refreshing since 2026-12-07T05:00:00Z (v1, job"
                                + " 0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f): 1,200 source records read so"
                                + " far (what it reads in all is known only for a whole refresh of"
                                + " materialized tables or of Kafka sources) at 300 a second, as of"
                                + " 2026-12-07T05:00:04Z");
        assertThat(at(0, null, 0).recordsPerSecond()).as("nothing read yet").isEmpty();
    }
}
