package io.mtables.schemas.refresh;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * New data is readable in a table ({@code RefreshSucceeded.v1} on {@code mt.refresh.events}, keyed
 * by {@link #table}): a FULL refresh finished, or a CONTINUOUS job committed a snapshot (or
 * completed a checkpoint with nothing to commit: NO_DATA).
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version that wrote the data
 * @param mode CONTINUOUS or FULL
 * @param partition the partition overwritten (column to value); empty for the whole table or for a
 *     CONTINUOUS commit
 * @param snapshotId the Paimon snapshot that holds the data
 * @param rowsWritten rows the refresh wrote (FULL), or rows the snapshot added (CONTINUOUS)
 * @param startedAt when the job manager took up the refresh (FULL: before its job was compiled and
 *     submitted, see {@link JobStarted#startedAt}) or the previous snapshot was committed
 *     (CONTINUOUS)
 * @param finishedAt when the snapshot was committed
 * @param dataTimestamp the data is complete up to this time: the tick's scheduled time or start of
 *     a FULL refresh; for CONTINUOUS, the trigger time of the checkpoint that committed the
 *     snapshot (its sources had read every change before it), less how far behind in time its
 *     sources were then when they had changes left to read; else the commit time
 * @param jobId Flink's job id; null for NO_DATA
 * @param outcome REFRESHED (a job wrote the data) or NO_DATA (a FULL refresh whose inputs had not
 *     changed since the last successful refresh of the same partition: no job ran; or a CONTINUOUS
 *     job's checkpoint with no change to commit: the table is as fresh as the checkpoint. Either
 *     way the table's snapshot is unchanged); null in events written before it, meaning REFRESHED
 * @param inputSnapshots FULL over Paimon inputs: the snapshot id of each input (table to id) the
 *     refresh read (pinned for its job); null when not tracked (CONTINUOUS, Kafka or database
 *     inputs)
 * @param changedPartitions a FULL refresh of only the partitions whose inputs changed (the plan's
 *     incremental level CHANGED_PARTITIONS): those partitions, each overwritten (or emptied, when
 *     the query no longer produces it); {@code partition} is then empty. Null for any other
 *     refresh.
 * @param trigger what the refresh was for: SCHEDULED, MANUAL, UPSTREAM or CATCH_UP (a FULL
 *     refresh's tick), CONTINUOUS (a streaming job's checkpoint); null in events written before it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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
        String jobId,
        Outcome outcome,
        Map<String, Long> inputSnapshots,
        List<Map<String, String>> changedPartitions,
        String trigger) {

    /** A refresh that ran a job, without input snapshots recorded. */
    public RefreshSucceeded(
            String table,
            long definitionVersion,
            RefreshPlan.Mode mode,
            Map<String, String> partition,
            long snapshotId,
            long rowsWritten,
            Instant startedAt,
            Instant finishedAt,
            Instant dataTimestamp,
            String jobId) {
        this(
                table,
                definitionVersion,
                mode,
                partition,
                snapshotId,
                rowsWritten,
                startedAt,
                finishedAt,
                dataTimestamp,
                jobId,
                null,
                null,
                null,
                null);
    }

    /** What the refresh did. */
    public enum Outcome {
        REFRESHED,
        NO_DATA
    }
}
