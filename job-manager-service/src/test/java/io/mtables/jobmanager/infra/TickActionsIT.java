package io.mtables.jobmanager.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.messaging.UnreadableRecordException;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A Quarkus test: SmallRye Fault Tolerance's guards need the application's CDI container. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class TickActionsIT {

    private static final RefreshTick TICK =
            new RefreshTick(
                    "default_catalog.db.t",
                    3,
                    Instant.parse("2026-12-01T00:00:00Z"),
                    Map.of(),
                    RefreshTick.Reason.SCHEDULED,
                    "default_catalog.db.t@2026-12-01T00:00:00Z");

    private final AtomicInteger attempts = new AtomicInteger();
    private final List<String> reported = new ArrayList<>();

    @Test
    void aTickThatFailsOnceIsActedOnAtTheNextAttemptAndNotReported() {
        TickActions actions =
                new TickActions(
                        tick -> {
                            if (attempts.incrementAndGet() == 1) {
                                throw new IllegalStateException(
                                        "Kafka did not acknowledge JobStarted");
                            }
                        },
                        (tick, reason) -> reported.add(reason),
                        10);

        actions.handle(TICK);

        assertThat(attempts).hasValue(2);
        assertThat(reported).isEmpty();
    }

    @Test
    void aTickThatKeepsFailingIsTriedThreeTimesThenReportedFailedWithTheCause() {
        TickActions actions =
                new TickActions(
                        tick -> {
                            attempts.incrementAndGet();
                            throw new IllegalStateException("the warehouse is not readable");
                        },
                        (tick, reason) -> reported.add(reason),
                        10);

        actions.handle(TICK);

        assertThat(attempts).hasValue(3);
        assertThat(reported)
                .singleElement()
                .asString()
                .contains("could not act on tick default_catalog.db.t@2026-12-01T00:00:00Z")
                .contains("the warehouse is not readable");
    }

    @Test
    void aTickWhoseFailureCannotBeReportedGoesToTheDeadLettersWithBothReasons() {
        TickActions actions =
                new TickActions(
                        tick -> {
                            throw new IllegalStateException("the warehouse is not readable");
                        },
                        (tick, reason) -> {
                            throw new IllegalStateException("Kafka is down");
                        },
                        10);

        assertThatThrownBy(() -> actions.handle(TICK))
                .isInstanceOf(UnreadableRecordException.class)
                .hasMessageContaining("the warehouse is not readable")
                .hasMessageContaining("Kafka is down");
    }
}
