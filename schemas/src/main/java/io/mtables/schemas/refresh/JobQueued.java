package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * A table's streaming job waits for task slots ({@code JobQueued.v1} on {@code mt.refresh.events},
 * keyed by {@link #table}): the cluster has too few free now, so the job is not submitted (a job
 * Flink cannot place would fail and count towards suspension). It starts, with a {@link
 * JobStarted}, once slots free up: another table stopped, suspended or dropped, or a TaskManager
 * joined.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version that waits
 * @param reason what it waits for and what frees it, in words
 * @param slotsNeeded the slots the job needs (its parallelism)
 * @param slotsFree the slots free for streaming jobs when it was queued (free slots, less those
 *     kept for FULL refreshes and those jobs already submitted are waiting for)
 * @param slotsTotal every slot of the cluster's TaskManagers
 * @param slotsReserved the slots kept free for FULL refreshes
 * @param queuedAt when it was queued
 */
public record JobQueued(
        String table,
        long definitionVersion,
        String reason,
        int slotsNeeded,
        int slotsFree,
        int slotsTotal,
        int slotsReserved,
        Instant queuedAt) {}
