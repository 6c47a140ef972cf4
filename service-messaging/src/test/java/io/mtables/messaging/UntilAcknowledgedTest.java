package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A record the broker did not take is written again in place, and the wait is reported. */
class UntilAcknowledgedTest {

    @Test
    void aRecordTheBrokerRefusedIsWrittenAgainUntilTakenAndTheReportCleared() {
        AtomicInteger tries = new AtomicInteger();
        List<String> reports = new ArrayList<>();
        UntilAcknowledged.write(
                "the plan of shop.daily v3",
                () -> {
                    if (tries.incrementAndGet() < 3) {
                        throw new BrokerUnavailableException("no acknowledgement in 5 s", null);
                    }
                },
                Duration.ofMillis(10),
                reports::add);
        assertThat(tries.get()).isEqualTo(3);
        assertThat(reports).hasSize(3);
        assertThat(reports.get(1))
                .isEqualTo(
                        "the plan of shop.daily v3 was not taken by Kafka 2 time(s) in a row;"
                                + " written again 10 ms after each refusal: no acknowledgement in"
                                + " 5 s");
        assertThat(reports.get(2)).as("taken: nothing to report").isNull();
    }

    @Test
    void anythingElseIsThrownAtOnceAndClearsTheReport() {
        AtomicInteger tries = new AtomicInteger();
        List<String> reports = new ArrayList<>();
        assertThatThrownBy(
                        () ->
                                UntilAcknowledged.write(
                                        "x",
                                        () -> {
                                            if (tries.incrementAndGet() == 1) {
                                                throw new BrokerUnavailableException("slow", null);
                                            }
                                            throw new IllegalStateException("the producer closed");
                                        },
                                        Duration.ofMillis(10),
                                        reports::add))
                .isInstanceOf(IllegalStateException.class);
        assertThat(reports).hasSize(2).last().isNull();
        tries.set(0);
        assertThatThrownBy(
                        () ->
                                UntilAcknowledged.write(
                                        "x",
                                        () -> {
                                            tries.incrementAndGet();
                                            throw new IllegalArgumentException("a bug");
                                        },
                                        Duration.ofMillis(10),
                                        report -> {}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(tries.get()).isEqualTo(1);
    }
}
