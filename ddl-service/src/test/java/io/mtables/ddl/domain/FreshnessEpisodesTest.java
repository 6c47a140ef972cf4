package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.refresh.FreshnessMissed;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FreshnessEpisodesTest {

    private static final String TABLE = "default_catalog.shop.t";
    private static final Duration FRESHNESS = Duration.ofSeconds(10);
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");

    private final FreshnessEpisodes episodes = new FreshnessEpisodes(GRACE, START);

    @Test
    void aTableBehindForLessThanTheGraceRaisesNothing() {
        Instant data = START.plusSeconds(100);
        assertThat(look(data, data.plusSeconds(35))).as("25 s behind, grace 30 s").isEmpty();
        assertThat(look(data.plusSeconds(35), data.plusSeconds(36)))
                .as("back within: no episode to close")
                .isEmpty();
    }

    @Test
    void oneMissedAndOneRestoredPerEpisode() {
        Instant data = START.plusSeconds(100);
        Instant behindSince = data.plus(FRESHNESS);
        assertThat(look(data, behindSince.plusSeconds(29))).isEmpty();
        var missed = look(data, behindSince.plus(GRACE));
        assertThat(missed)
                .get()
                .isInstanceOfSatisfying(
                        FreshnessEpisodes.Missed.class,
                        m -> {
                            assertThat(m.event().behindSince()).isEqualTo(behindSince);
                            assertThat(m.event().lag()).isEqualTo(FRESHNESS.plus(GRACE));
                            episodes.apply(m.event());
                        });
        assertThat(look(data, behindSince.plusSeconds(300))).as("still behind: no storm").isEmpty();
        assertThat(episodes.missedSince(TABLE)).contains(behindSince);

        Instant fresh = behindSince.plusSeconds(400);
        var restored = look(fresh, fresh.plusSeconds(2));
        assertThat(restored)
                .get()
                .isInstanceOfSatisfying(
                        FreshnessEpisodes.Restored.class,
                        r -> {
                            assertThat(r.event().behindSince()).isEqualTo(behindSince);
                            assertThat(r.event().lag()).isEqualTo(Duration.ofSeconds(2));
                            episodes.apply(r.event());
                        });
        assertThat(look(fresh, fresh.plusSeconds(3))).isEmpty();
        assertThat(episodes.missedSince(TABLE)).isEmpty();
    }

    @Test
    void
            afterARestartAnEpisodeBeginsNoEarlierThanTheStartAndOneAlreadyReportedIsNotReportedAgain() {
        Instant longAgo = START.minusSeconds(3600);
        assertThat(look(longAgo, START.plusSeconds(5)))
                .as("the replay has the grace to catch up")
                .isEmpty();
        assertThat(look(longAgo, START.plus(GRACE)))
                .get()
                .isInstanceOf(FreshnessEpisodes.Missed.class);

        FreshnessEpisodes restarted = new FreshnessEpisodes(GRACE, START);
        restarted.apply(
                new FreshnessMissed(
                        TABLE,
                        1,
                        FRESHNESS,
                        Duration.ofSeconds(40),
                        longAgo,
                        longAgo.plus(FRESHNESS),
                        longAgo.plusSeconds(40)));
        assertThat(
                        restarted.look(
                                TABLE,
                                1,
                                FRESHNESS,
                                measured(longAgo, START.plusSeconds(60)),
                                START.plusSeconds(60)))
                .isEmpty();
    }

    @Test
    void anUnmeasuredTableRaisesNothing() {
        assertThat(episodes.look(TABLE, 1, FRESHNESS, Optional.empty(), START.plusSeconds(3600)))
                .isEmpty();
    }

    private Optional<FreshnessEpisodes.Decision> look(Instant dataTimestamp, Instant now) {
        return episodes.look(TABLE, 1, FRESHNESS, measured(dataTimestamp, now), now);
    }

    private static Optional<TableFreshness.Measured> measured(Instant dataTimestamp, Instant now) {
        return Optional.of(
                new TableFreshness.Measured(dataTimestamp, Duration.between(dataTimestamp, now)));
    }
}
