package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.FreshnessMissed;
import io.mtables.schemas.refresh.FreshnessRestored;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which tables are in a missed-freshness episode, and when one begins or ends: one FreshnessMissed
 * when a table has been behind its freshness for longer than the grace, one FreshnessRestored when
 * it is within it again, never more per episode.
 *
 * <p>A table is behind from {@code dataTimestamp + freshness} on (its lag grows a second per second
 * until a refresh lands), but never from before {@code watchingSince}: after a restart the events
 * already published are replayed into {@link #apply} before the grace runs out, so an episode
 * already reported is not reported again.
 */
public final class FreshnessEpisodes {

    /** An open episode: when it began, and whether FreshnessMissed was published for it. */
    private record Episode(Instant behindSince, boolean reported) {}

    private final Duration grace;
    private final Instant watchingSince;
    private final Map<String, Episode> episodes = new ConcurrentHashMap<>();

    public FreshnessEpisodes(Duration grace, Instant watchingSince) {
        this.grace = grace;
        this.watchingSince = watchingSince;
    }

    /** What the table's measurement calls for: an alert to publish, or nothing. */
    public sealed interface Decision {}

    /** Publish FreshnessMissed (then {@link #apply(FreshnessMissed)} once it is written). */
    public record Missed(FreshnessMissed event) implements Decision {}

    /** Publish FreshnessRestored (then {@link #apply(FreshnessRestored)} once it is written). */
    public record Restored(FreshnessRestored event) implements Decision {}

    /**
     * Looks at one table's measured freshness.
     *
     * @param measured empty while the table has not been measured (nothing is decided then)
     */
    public Optional<Decision> look(
            String table,
            long definitionVersion,
            Duration freshness,
            Optional<TableFreshness.Measured> measured,
            Instant now) {
        if (measured.isEmpty()) {
            return Optional.empty();
        }
        TableFreshness.Measured m = measured.get();
        Episode episode = episodes.get(table);
        if (m.within(freshness)) {
            if (episode == null) {
                return Optional.empty();
            }
            if (!episode.reported()) {
                episodes.remove(table); // behind for less than the grace: not an episode
                return Optional.empty();
            }
            return Optional.of(
                    new Restored(
                            new FreshnessRestored(
                                    table,
                                    definitionVersion,
                                    freshness,
                                    m.lag(),
                                    m.dataTimestamp(),
                                    episode.behindSince(),
                                    now)));
        }
        if (episode == null) {
            Instant behind = m.dataTimestamp().plus(freshness);
            episode = new Episode(behind.isBefore(watchingSince) ? watchingSince : behind, false);
            episodes.put(table, episode);
        }
        if (!episode.reported() && !now.isBefore(episode.behindSince().plus(grace))) {
            return Optional.of(
                    new Missed(
                            new FreshnessMissed(
                                    table,
                                    definitionVersion,
                                    freshness,
                                    m.lag(),
                                    m.dataTimestamp(),
                                    episode.behindSince(),
                                    now)));
        }
        return Optional.empty();
    }

    /** A FreshnessMissed was published (by this instance, or before a restart). */
    public void apply(FreshnessMissed event) {
        episodes.put(event.table(), new Episode(event.behindSince(), true));
    }

    /** A FreshnessRestored was published: the episode is over. */
    public void apply(FreshnessRestored event) {
        episodes.remove(event.table());
    }

    /** The table was dropped: its episode ends without a word. */
    public void forget(String table) {
        episodes.remove(table);
    }

    /** When the table's reported episode began; empty when it is not in one. */
    public Optional<Instant> missedSince(String table) {
        return Optional.ofNullable(episodes.get(table))
                .filter(Episode::reported)
                .map(Episode::behindSince);
    }
}
