package io.mtables.jobmanager.infra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PollHealthTest {

    @Test
    void readinessGoesDownAfterThreeFailedPollsInARowAndComesBackWithTheNextThatWorks() {
        PollHealth health = new PollHealth();
        health.failed("Connection refused: 127.0.0.1:8085");
        health.failed("Connection refused: 127.0.0.1:8085");
        assertThat(health.problem()).as("two failures are retried quietly").isNull();

        health.failed("Connection refused: 127.0.0.1:8085");
        assertThat(health.problem())
                .isEqualTo(
                        "looking at the jobs failed 3 times in a row; the last: Connection refused:"
                                + " 127.0.0.1:8085");

        health.succeeded();
        assertThat(health.problem()).isNull();
        health.failed("timeout");
        assertThat(health.problem()).as("counted afresh").isNull();
    }
}
