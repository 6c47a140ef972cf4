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
 */
public record Suspended(String table, long definitionVersion, String reason, String savepoint, Instant suspendedAt) {}
