package io.mtables.schemas.refresh;

import java.time.Instant;

/**
 * How far a FULL table's running refresh is ({@code RefreshProgress.v1} on {@code
 * mt.refresh.events}, keyed by {@link #table}): reported every few seconds while its batch job
 * runs, from Flink's source metrics. Its end is the refresh's {@code RefreshSucceeded} or {@code
 * RefreshFailed}.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version the refresh runs
 * @param jobId Flink's job id of the refresh
 * @param sourceRecordsRead records the job's sources have read so far ({@code numRecordsOut} of
 *     every source operator, summed)
 * @param sourceRecordsToRead records the job's sources read in all, when known: what Kafka sources
 *     have read and have yet to read up to where the refresh stops, or the records in the snapshots
 *     it reads of the materialized tables it reads whole; null when not known (a refresh of some
 *     partitions, or sources of both kinds)
 * @param startedAt when the job manager took up the refresh
 * @param reportedAt when the metrics were read
 */
public record RefreshProgress(
        String table,
        long definitionVersion,
        String jobId,
        long sourceRecordsRead,
        Long sourceRecordsToRead,
        Instant startedAt,
        Instant reportedAt) {}
