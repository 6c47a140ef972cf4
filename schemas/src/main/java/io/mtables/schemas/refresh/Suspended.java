package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * A table's pipeline stopped ({@code Suspended.v1} on {@code mt.refresh.events}, keyed by {@link
 * #table}): by ALTER ... SUSPEND, or by the job manager after too many failures in a row.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version at the time
 * @param reason why, in words
 * @param savepoint where the streaming job's state was saved; null for FULL tables or when the job
 *     was not running
 * @param suspendedAt when the pipeline stopped
 * @param cause STATEMENT (ALTER ... SUSPEND) or FAILURES (the job manager, after too many in a
 *     row); null in events written before it was added
 */
public record Suspended(
        String table,
        long definitionVersion,
        String reason,
        String savepoint,
        Instant suspendedAt,
        Cause cause) {

    /** Who suspended the table. */
    public enum Cause {
        /** ALTER MATERIALIZED TABLE ... SUSPEND. */
        STATEMENT,
        /** The job manager, after {@code mt.jobs.max-consecutive-failures} failures in a row. */
        FAILURES
    }
}
