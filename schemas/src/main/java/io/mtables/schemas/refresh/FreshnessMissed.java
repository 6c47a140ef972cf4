package io.mtables.schemas.refresh;

import java.time.Duration;
import java.time.Instant;

/**
 * A table has been behind its freshness for longer than the alert grace ({@code FreshnessMissed.v1}
 * on {@code mt.refresh.events}, keyed by {@link #table}). One per episode: the next is a {@link
 * FreshnessRestored}.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version at the time
 * @param freshness the freshness the table's plan keeps
 * @param lag the measured lag when the alert was raised
 * @param dataTimestamp the table held every change of its root sources up to this time
 * @param behindSince when the lag first exceeded the freshness ({@code dataTimestamp + freshness})
 * @param detectedAt when the alert was raised
 */
public record FreshnessMissed(
        String table,
        long definitionVersion,
        Duration freshness,
        Duration lag,
        Instant dataTimestamp,
        Instant behindSince,
        Instant detectedAt) {}
