package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * A dropped table's pipeline is stopped and its data removed ({@code Dropped.v1} on {@code
 * mt.refresh.events}, keyed by {@link #table}).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the version that was dropped
 * @param droppedAt when the data was removed
 */
public record Dropped(String table, long definitionVersion, Instant droppedAt) {}
