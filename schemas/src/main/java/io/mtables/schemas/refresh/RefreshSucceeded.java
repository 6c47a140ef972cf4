package io.mtables.schemas.refresh;

import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;
import java.util.Map;

/**
 * New data is readable in a table ({@code RefreshSucceeded.v1} on {@code mt.refresh.events}, keyed
 * by {@link #table}): a FULL refresh finished, or a CONTINUOUS job committed a snapshot.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version that wrote the data
 * @param mode CONTINUOUS or FULL
 * @param partition the partition overwritten (column to value); empty for the whole table or for a
 *     CONTINUOUS commit
 * @param snapshotId the Paimon snapshot that holds the data
 * @param rowsWritten rows the refresh wrote (FULL), or rows the snapshot added (CONTINUOUS)
 * @param startedAt when the refresh started (FULL) or the previous snapshot was committed
 * @param finishedAt when the snapshot was committed
 * @param dataTimestamp the data is complete up to this time: the tick's scheduled time or start of a
 *     FULL refresh, the commit time of a CONTINUOUS snapshot
 * @param jobId Flink's job id
 */
public record RefreshSucceeded(
    String table,
    long definitionVersion,
    RefreshPlan.Mode mode,
    Map<String, String> partition,
    long snapshotId,
    long rowsWritten,
    Instant startedAt,
    Instant finishedAt,
    Instant dataTimestamp,
    String jobId) {}
