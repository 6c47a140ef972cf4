package io.mtables.jobmanager.flink;

/**
 * How far a job's sources are, from Flink's source metrics (FLIP-33), summed over its sources.
 *
 * @param pendingRecords records the sources have yet to read ({@code pendingRecords})
 * @param recordsRead records the sources have emitted since the job started ({@code numRecordsOut})
 * @param behindMillis how far behind in time the sources with records left to read are: the largest
 *     {@code currentEmitEventTimeLag} among them (now minus the time of the record each read last:
 *     a change's commit time in PostgreSQL for a captured table, else its Kafka record time); 0
 *     when none has records left; {@link #UNKNOWN} when one that has cannot say
 */
public record SourceProgress(long pendingRecords, long recordsRead, long behindMillis) {

    public static final long UNKNOWN = -1;

    /** Sources that say how much they have left but not how far behind in time that is. */
    public SourceProgress(long pendingRecords, long recordsRead) {
        this(pendingRecords, recordsRead, pendingRecords == 0 ? 0 : UNKNOWN);
    }
}
