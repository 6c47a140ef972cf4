package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.flink.SourceProgress;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SourceLagTest {

    private static final Instant T = Instant.parse("2026-12-02T10:00:00Z");
    private final SourceLag lag = new SourceLag();

    @Test
    void withoutALookTheTriggerTimeStands() {
        assertThat(lag.dataTimestamp(T)).isEqualTo(T);
    }

    @Test
    void theLastLookBeforeTheCheckpointSaysHowFarBehindItsSourcesWere() {
        lag.sampled(T.minusSeconds(2), 0);
        lag.sampled(T.minusSeconds(1), 90_000);
        lag.sampled(T.plusMillis(500), 0); // caught up after the checkpoint: too late for it
        assertThat(lag.dataTimestamp(T)).isEqualTo(T.minusSeconds(90));
        assertThat(lag.dataTimestamp(T.minusMillis(1_500)))
                .as("the look before that one")
                .isEqualTo(T.minusMillis(1_500));
        assertThat(lag.dataTimestamp(T.plusSeconds(1))).isEqualTo(T.plusSeconds(1));
    }

    @Test
    void aCheckpointBeforeEveryLookTakesTheFirstLook() {
        lag.sampled(T.plusSeconds(1), 30_000);
        assertThat(lag.dataTimestamp(T)).isEqualTo(T.minusSeconds(30));
    }

    @Test
    void sourcesThatCannotSayLeaveTheTriggerTime() {
        lag.sampled(T.minusSeconds(1), SourceProgress.UNKNOWN);
        assertThat(lag.dataTimestamp(T)).isEqualTo(T);
    }

    @Test
    void looksOlderThanAnyCheckpointStillToReportAreForgotten() {
        lag.sampled(T, 60_000);
        lag.sampled(T.plus(SourceLag.KEPT).plusSeconds(1), 0);
        assertThat(lag.dataTimestamp(T))
                .as("the old look is gone: the first kept one stands")
                .isEqualTo(T);
    }
}
