package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * Readers of a CONTINUOUS table read its new query's rows: the staged table caught up with the
 * sources, took the table's name, and its job goes on from the savepoint it stopped with; the old
 * query's job and rows are gone ({@code SwitchedOver.v1} on {@code mt.refresh.events}, keyed by
 * {@link #table}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version of the query readers now read
 * @param fromVersion the definition version whose rows were replaced; 0 when unknown
 * @param savepoint the savepoint the new query's job stopped with before the renames, and goes on
 *     from
 * @param stagedAt when the new query started filling its staged table
 * @param switchedAt when the table's name named the new query's table
 * @param nameGapMillis how long the table's name named no Paimon table, between the two renames
 */
public record SwitchedOver(
        String table,
        long definitionVersion,
        long fromVersion,
        String savepoint,
        Instant stagedAt,
        Instant switchedAt,
        double nameGapMillis) {}
