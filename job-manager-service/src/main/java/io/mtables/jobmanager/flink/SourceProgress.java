package io.mtables.jobmanager.flink;

/**
 * How far a job's sources are, from Flink's source metrics (FLIP-33), summed over its sources.
 *
 * @param pendingRecords records the sources have yet to read ({@code pendingRecords})
 * @param recordsRead records the sources have emitted since the job started ({@code numRecordsOut})
 */
public record SourceProgress(long pendingRecords, long recordsRead) {}
