package io.mtables.schemas.refresh;

import java.time.Duration;
import java.time.Instant;

/**
 * A table that missed its freshness is within it again ({@code FreshnessRestored.v1} on {@code
 * mt.refresh.events}, keyed by {@link #table}); it closes the episode a {@link FreshnessMissed}
 * opened.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version at the time
 * @param freshness the freshness the table's plan keeps
 * @param lag the measured lag when it was seen within the freshness again
 * @param dataTimestamp the table holds every change of its root sources up to this time
 * @param behindSince when the episode began (the {@link FreshnessMissed}'s)
 * @param restoredAt when the table was seen within its freshness again
 */
public record FreshnessRestored(
        String table,
        long definitionVersion,
        Duration freshness,
        Duration lag,
        Instant dataTimestamp,
        Instant behindSince,
        Instant restoredAt) {}
