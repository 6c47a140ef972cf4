package io.mtables.refreshscheduler.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.tick.RefreshTick;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ticks whose transaction failed are written again before later ones, and readiness goes down if
 * that keeps failing.
 */
class UnwrittenTicksTest {

    private static final RefreshTick HOURLY =
            tick("default_catalog.shop.hourly", "2026-12-01T10:00:00Z");
    private static final RefreshTick DAILY =
            tick("default_catalog.shop.daily", "2026-12-01T00:00:00Z");
    private static final RefreshTick NEXT_HOUR =
            tick("default_catalog.shop.hourly", "2026-12-01T11:00:00Z");

    @Test
    void failedTicksAreWrittenAgainFirstAndReadinessGoesDownAfterThreeFailures() {
        UnwrittenTicks unwritten = new UnwrittenTicks();
        List<RefreshTick> first = unwritten.before(List.of(HOURLY, DAILY));
        unwritten.failed(first, "Timeout expired after 60000ms while awaiting EndTxn(COMMIT)");
        assertThat(unwritten.before(List.of())).containsExactly(HOURLY, DAILY);

        unwritten.failed(unwritten.before(List.of()), "timeout");
        assertThat(unwritten.problem()).as("two failures are retried quietly").isNull();
        List<RefreshTick> third = unwritten.before(List.of(NEXT_HOUR));
        assertThat(third).containsExactly(HOURLY, DAILY, NEXT_HOUR);
        unwritten.failed(third, "timeout");
        assertThat(unwritten.problem())
                .isEqualTo("3 tick(s) not written after 3 tries in a row; the last error: timeout");

        unwritten.written();
        assertThat(unwritten.problem()).isNull();
        assertThat(unwritten.before(List.of())).isEmpty();
    }

    @Test
    void ticksOfTablesThatMovedAreDropped() {
        UnwrittenTicks unwritten = new UnwrittenTicks();
        unwritten.failed(List.of(HOURLY, DAILY), "timeout");
        unwritten.release(table -> table.endsWith(".daily"));
        assertThat(unwritten.before(List.of())).containsExactly(HOURLY);
    }

    private static RefreshTick tick(String table, String time) {
        Instant at = Instant.parse(time);
        return new RefreshTick(
                table, 1, at, Map.of(), RefreshTick.Reason.SCHEDULED, table + "@" + at);
    }
}
