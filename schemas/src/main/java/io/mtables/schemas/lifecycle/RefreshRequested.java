package io.mtables.schemas.lifecycle;

import java.time.Instant;
import java.util.Map;

/**
 * A manual refresh of a materialized table ({@code RefreshRequested.v1} on {@code
 * mt.lifecycle.commands}, keyed by {@link #table}): one batch refresh, now, of the whole table or
 * of one partition.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version the request was validated against
 * @param partition the partition to overwrite (column to value); empty for the whole table
 * @param requestedAt when the request was accepted
 * @param requestId the request that asked for it
 */
public record RefreshRequested(
        String table,
        long definitionVersion,
        Map<String, String> partition,
        Instant requestedAt,
        String requestId) {}
