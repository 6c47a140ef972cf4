package io.mtables.schemas.refresh;

import java.time.Instant;
import java.util.Map;

/**
 * A suspended table runs again ({@code Resumed.v1} on {@code mt.refresh.events}, keyed by {@link
 * #table}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version that runs
 * @param savepoint the savepoint the streaming job restored from; null when none
 * @param options the RESUME WITH (...) options, for this run only
 * @param resumedAt when it resumed
 */
public record Resumed(
        String table,
        long definitionVersion,
        String savepoint,
        Map<String, String> options,
        Instant resumedAt) {}
