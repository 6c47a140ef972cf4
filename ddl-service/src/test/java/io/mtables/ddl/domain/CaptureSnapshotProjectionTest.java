package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.capture.CaptureSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaptureSnapshotProjectionTest {

    private static final Instant T = Instant.parse("2026-12-07T05:00:00Z");

    private static CaptureSnapshot report(
            String table, long read, Long estimate, boolean done, Instant started, int second) {
        return new CaptureSnapshot(
                "cdc." + table, table, read, estimate, done, started, T.plusSeconds(second));
    }

    @Test
    void theWholeSnapshotCountsForATableThatReadsOneOfItsTables() {
        var captures =
                new CaptureSnapshotProjection(Clock.fixed(T.plusSeconds(60), ZoneOffset.UTC));
        captures.apply(report("s.a", 300, 1_000L, false, T, 10));
        captures.apply(report("s.b", 100, 1_000L, false, T, 10));
        captures.apply(report("s.c", 5, 5L, true, T.minusSeconds(3600), 10)); // an older snapshot

        var estimate = captures.underWay(List.of("cdc.s.a")).orElseThrow();
        assertThat(estimate.waitedOn()).containsExactly("s.a");
        assertThat(estimate.rowsCaptured()).isEqualTo(400);
        assertThat(estimate.percent()).contains(20.0);
        assertThat(estimate.rowsPerSecond()).contains(40.0);
        assertThat(estimate.timeLeft()).contains(Duration.ofSeconds(40));
        assertThat(captures.underWay(List.of("cdc.s.c"))).as("its snapshot is done").isEmpty();
        assertThat(captures.underWay(List.of("cdc.unknown"))).isEmpty();
    }

    @Test
    void anOlderReportDoesNotReplaceANewerOneAndATableWithoutAnEstimateLeavesOnlyTheRows() {
        var captures =
                new CaptureSnapshotProjection(Clock.fixed(T.plusSeconds(60), ZoneOffset.UTC));
        captures.apply(report("s.a", 300, null, false, T, 10));
        captures.apply(report("s.a", 100, null, false, T, 5));
        var estimate = captures.underWay(List.of("cdc.s.a")).orElseThrow();
        assertThat(estimate.rowsCaptured()).isEqualTo(300);
        assertThat(estimate.percent()).isEmpty();
        assertThat(estimate.timeLeft()).isEmpty();
        assertThat(estimate.inWords())
                .startsWith(
                        "the capture is snapshotting s.a since 2026-12-07T05:00:00Z: 300 rows read"
                                + " (PostgreSQL has no estimate of a table never analyzed) at 30 a"
                                + " second; its rows reach Kafka together when it ends");
        captures.apply(report("s.a", 900, null, true, T, 30));
        assertThat(captures.underWay(List.of("cdc.s.a"))).isEmpty();
    }

    @Test
    void aSnapshotTheCaptureStoppedReportingOnIsNotUnderWay() {
        var report = report("s.a", 300, 1_000L, false, T, 10);
        var soon = new CaptureSnapshotProjection(Clock.fixed(T.plusSeconds(120), ZoneOffset.UTC));
        soon.apply(report);
        assertThat(soon.underWay(List.of("cdc.s.a"))).isPresent();
        var later = new CaptureSnapshotProjection(Clock.fixed(T.plusSeconds(131), ZoneOffset.UTC));
        later.apply(report);
        assertThat(later.underWay(List.of("cdc.s.a")))
                .as("silent for more than two minutes")
                .isEmpty();
    }
}
