package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.refresh.RefreshProgress;
import java.time.Clock;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * How far a running FULL refresh is, reported as {@code RefreshProgress} every {@link
 * SourceLoads#LOAD_REPORT_EVERY} while its job runs: the records its sources have read, and the
 * records they read in all where that can be known. Kafka sources say what they have left up to
 * where the refresh stops; Paimon sources cannot, so for a refresh over materialized tables only,
 * reading them whole, the total is the records in the snapshots it reads, counted before it runs.
 */
final class FullRefreshProgress {

    private final FlinkTarget flink;
    private final PaimonSnapshots snapshots;
    private final PipelineReports reports;
    private final Clock clock;

    FullRefreshProgress(
            FlinkTarget flink, PaimonSnapshots snapshots, PipelineReports reports, Clock clock) {
        this.flink = flink;
        this.snapshots = snapshots;
        this.reports = reports;
        this.clock = clock;
    }

    /**
     * The records a refresh reads in all, counted before it runs: known when it reads every input
     * whole and every input is a materialized table (a Paimon table, read at {@code run}'s pinned
     * snapshot); null otherwise.
     */
    Long recordsToRead(TableDefinition definition, RefreshScopes.Run run) {
        Pipeline.RefreshScope scope = run.scope();
        boolean whole = scope.changedPartitions() == null && scope.baseline().isEmpty();
        if (!whole || definition.sources().isEmpty()) {
            return null;
        }
        long records = 0;
        for (var source : definition.sources()) {
            Long pinned = run.pinned().get(source.table());
            if (source.kind() != TableDefinition.Kind.MATERIALIZED_TABLE || pinned == null) {
                return null;
            }
            OptionalLong inSnapshot = snapshots.totalRecords(source.table(), pinned);
            if (inSnapshot.isEmpty()) {
                return null;
            }
            records += inSnapshot.getAsLong();
        }
        return records;
    }

    /** Reports how far the running refresh is, at most every few seconds. */
    void report(Pipeline pipeline) {
        Instant now = clock.instant();
        if (pipeline.refreshProgressAt != null
                && now.isBefore(pipeline.refreshProgressAt.plus(SourceLoads.LOAD_REPORT_EVERY))) {
            return;
        }
        String jobId = pipeline.refreshJobId;
        var withPending = flink.sourceProgress(jobId);
        long read;
        Long toRead = pipeline.refreshRecordsToRead;
        if (withPending.isPresent()) {
            // Every source says what it has left (Kafka, up to where the refresh stops).
            read = withPending.get().recordsRead();
            toRead = read + withPending.get().pendingRecords();
        } else {
            OptionalLong sourcesRead = flink.sourceRecordsRead(jobId);
            if (sourcesRead.isEmpty()) {
                return; // its sources have not started yet: asked again at the next look
            }
            read = sourcesRead.getAsLong();
        }
        pipeline.refreshProgressAt = now;
        reports.events()
                .refreshProgress(
                        new RefreshProgress(
                                pipeline.table,
                                pipeline.definition.version(),
                                jobId,
                                read,
                                toRead,
                                pipeline.refreshStartedAt,
                                now));
    }
}
