package io.mtables.schemas.catalog;

import java.time.Instant;

/**
 * A table was dropped ({@code TableDropped.v1} on {@code mt.table.definitions}, keyed by {@link
 * #table}). Consumers stop the table's pipeline first, then forget it.
 *
 * @param table the fully qualified identifier
 * @param version the version after the last definition; a table created again later continues from
 *     here
 * @param kind what kind of table it was
 * @param droppedAt when the drop was accepted
 * @param requestId the request that dropped it
 */
public record TableDropped(
        String table,
        long version,
        TableDefinition.Kind kind,
        Instant droppedAt,
        String requestId) {}
