package io.mtables.ddl.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HistoryBoundsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void eachTableKeepsItsNewestRowsUpToTheCount() {
        HistoryBounds bounds = new HistoryBounds(2, Duration.ofDays(7));
        assertThat(bounds.add("a", "0@1", NOW.toEpochMilli())).isEmpty();
        assertThat(bounds.add("b", "0@2", NOW.toEpochMilli())).isEmpty();
        assertThat(bounds.add("a", "0@3", NOW.toEpochMilli())).isEmpty();
        assertThat(bounds.add("a", "0@4", NOW.toEpochMilli()))
                .containsExactly(new HistoryBounds.Key("a", "0@1"));
        assertThat(bounds.has("a", "0@3")).isTrue();
        assertThat(bounds.has("a", "0@1")).isFalse();
        assertThat(bounds.size()).isEqualTo(3);
    }

    @Test
    void rowsOlderThanTheAgeGo() {
        HistoryBounds bounds = new HistoryBounds(100, Duration.ofHours(1));
        bounds.add("a", "0@1", NOW.minus(Duration.ofMinutes(61)).toEpochMilli());
        bounds.add("a", "0@2", NOW.minus(Duration.ofMinutes(59)).toEpochMilli());
        bounds.add("b", "1@1", NOW.minus(Duration.ofHours(2)).toEpochMilli());
        assertThat(bounds.expired(NOW))
                .containsExactlyInAnyOrder(
                        new HistoryBounds.Key("a", "0@1"), new HistoryBounds.Key("b", "1@1"));
        assertThat(bounds.size()).isEqualTo(1);
        assertThat(bounds.expired(NOW)).isEmpty();
    }
}
