package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** A loop that stops going round is seen: its heartbeat's problem, which readiness takes. */
class LoopHeartbeatTest {

    @Test
    void aLoopThatAnErrorEndedStopsBeatingAndSaysSo() {
        LoopHeartbeat heartbeat = new LoopHeartbeat("the test loop", Duration.ofMillis(300));
        AtomicInteger rounds = new AtomicInteger();
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        try {
            heartbeat.started();
            loop.scheduleWithFixedDelay(
                    heartbeat.round(
                            () -> {
                                if (rounds.incrementAndGet() == 3) {
                                    throw new StackOverflowError("a round's error");
                                }
                            }),
                    0,
                    20,
                    TimeUnit.MILLISECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() >= 3);
            assertThat(rounds.get()).isEqualTo(3); // the executor never runs it again
            Awaitility.await()
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> heartbeat.problem().isPresent());
            assertThat(heartbeat.problem().get())
                    .startsWith("the test loop has not ended a round for")
                    .contains("restart the service");
        } finally {
            loop.shutdownNow();
        }
    }

    @Test
    void aLoopGoingRoundIsHealthyAndSoIsOneNotStartedYet() {
        AtomicLong now = new AtomicLong();
        LoopHeartbeat heartbeat =
                new LoopHeartbeat("the test loop", Duration.ofSeconds(10), now::get);
        now.set(Duration.ofHours(1).toNanos());
        assertThat(heartbeat.problem()).as("not started: a standby's").isEmpty();
        heartbeat.started();
        now.addAndGet(Duration.ofSeconds(9).toNanos());
        assertThat(heartbeat.problem()).isEmpty();
        heartbeat.beat();
        now.addAndGet(Duration.ofSeconds(9).toNanos());
        assertThat(heartbeat.problem()).isEmpty();
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(heartbeat.problem()).hasValueSatisfying(p -> assertThat(p).contains("11 s"));
    }
}
