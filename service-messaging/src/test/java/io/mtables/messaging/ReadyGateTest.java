package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A service's start-up step is tried until it succeeds, and readiness says why meanwhile. */
class ReadyGateTest {

    @Test
    void aFailedStepClosesTheGateSayingWhyAndRunsAgain() {
        ReadyGate gate = new ReadyGate();
        List<String> statesSeen = new ArrayList<>();
        int[] tries = {0};

        gate.runUntilDone(
                "reading the catalog back",
                Duration.ofMillis(10),
                () -> {
                    statesSeen.add(gate.state());
                    if (++tries[0] < 3) {
                        throw new IllegalStateException("broker gone #" + tries[0]);
                    }
                    gate.open();
                });

        assertThat(tries[0]).isEqualTo(3);
        assertThat(statesSeen)
                .containsExactly(
                        "starting",
                        "reading the catalog back failed (tried again in 0 s): broker gone #1",
                        "reading the catalog back failed (tried again in 0 s): broker gone #2");
        assertThat(gate.isOpen()).isTrue();
    }

    @Test
    void anInterruptedWaitEndsTheTries() {
        ReadyGate gate = new ReadyGate();
        Thread.currentThread().interrupt();

        gate.runUntilDone(
                "starting",
                Duration.ofSeconds(5),
                () -> {
                    throw new IllegalStateException("no broker");
                });

        assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        assertThat(gate.isOpen()).isFalse();
        assertThat(gate.state()).startsWith("starting failed (tried again in 5 s): no broker");
    }
}
