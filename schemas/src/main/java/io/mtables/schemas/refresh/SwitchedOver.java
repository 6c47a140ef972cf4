package io.mtables.schemas.refresh;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param bridge where the sources no longer held every change, how the old query's rows were kept
 *     (seed 004's bridge); null otherwise
 */
public record SwitchedOver(
        String table,
        long definitionVersion,
        long fromVersion,
        String savepoint,
        Instant stagedAt,
        Instant switchedAt,
        double nameGapMillis,
        @JsonInclude(JsonInclude.Include.NON_NULL) Bridged bridge) {

    /** A switch-over whose sources held every change. */
    public SwitchedOver(
            String table,
            long definitionVersion,
            long fromVersion,
            String savepoint,
            Instant stagedAt,
            Instant switchedAt,
            double nameGapMillis) {
        this(
                table,
                definitionVersion,
                fromVersion,
                savepoint,
                stagedAt,
                switchedAt,
                nameGapMillis,
                null);
    }

    /**
     * The old query's rows kept: those whose {@code column} is at most {@code cutOver}.
     *
     * @param column the window end column
     * @param cutOver the newest value of {@code column} the old query wrote (Flink's CAST to
     *     STRING)
     * @param newRowsFrom the oldest value of {@code column} the new query wrote; null when it wrote
     *     none. Later than {@code cutOver}: the windows between them may be missing or partial
     */
    public record Bridged(String column, String cutOver, String newRowsFrom) {}
}
