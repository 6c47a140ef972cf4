package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * A CONTINUOUS table's new query goes on from the old query's state (a COMPATIBLE change,
 * docs/evolution.md): the old job stopped with a savepoint, the rows it wrote were rewritten into
 * the new query's, and the new query's job was started from the savepoint, its sources going on
 * from where the old job stopped ({@code StateRestored.v1} on {@code mt.refresh.events}, keyed by
 * {@link #table}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version whose job was started from the savepoint
 * @param fromVersion the definition version whose job stopped with it
 * @param savepoint the savepoint the new job starts from
 * @param stoppedAt when the old job was asked to stop: the table's last commit of the old query
 * @param restoredAt when the new query's job was started from the savepoint
 */
public record StateRestored(
        String table,
        long definitionVersion,
        long fromVersion,
        String savepoint,
        Instant stoppedAt,
        Instant restoredAt) {}
