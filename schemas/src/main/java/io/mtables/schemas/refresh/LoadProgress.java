package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * How far a CONTINUOUS table's streaming job is through its sources while it catches up after it
 * started ({@code LoadProgress.v1} on {@code mt.refresh.events}, keyed by {@link #table}): an
 * initial load of a large change stream can take hours, and until it is through, the table holds
 * only part of the data. Reported every few seconds from Flink's source metrics, and a last time
 * with {@link #caughtUp} once the sources had nothing left to read.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version the job runs
 * @param jobId Flink's job id
 * @param sourceRecordsBehind records the job's sources have yet to read (Flink's {@code
 *     pendingRecords}, summed over every source)
 * @param sourceRecordsRead records the job's sources have read since the job started
 * @param caughtUp whether the sources had nothing left to read: the last report of this job
 * @param reportedAt when the metrics were read
 */
public record LoadProgress(
        String table,
        long definitionVersion,
        String jobId,
        long sourceRecordsBehind,
        long sourceRecordsRead,
        boolean caughtUp,
        Instant reportedAt) {}
