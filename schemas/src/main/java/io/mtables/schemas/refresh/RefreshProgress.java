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
 * @param sourceRecordsToRead records the job's sources read in all, when known: for Kafka sources,
 *     what they have read and their lag behind the topic's end ({@code pendingRecords}: records
 *     written during the refresh count though its bounded read stops before them); for a refresh
 *     that reads materialized tables only and whole, the records in the snapshots it reads (a query
 *     that filters them reads fewer). Null when not known: a refresh of some partitions of
 *     materialized tables, sources of both kinds, a Kafka source before its first fetch
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
