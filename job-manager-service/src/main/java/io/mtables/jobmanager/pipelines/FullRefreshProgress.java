package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.flink.SourceProgress;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.refresh.RefreshProgress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
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

    /** Until a refresh's sources' metrics answer, how often they are asked. */
    static final Duration FIRST_LOOKS_EVERY = Duration.ofSeconds(1);

    /** A running refresh job's looks (the control thread's only). */
    private static final class Look {
        /** When it was last looked at; null: never. */
        Instant at;

        boolean reported;

        /** Whether its sources say what they have left; null until their metrics answer. */
        Boolean sourcesSayLeft;

        boolean startUnknown;
    }

    private final Map<String, Look> looks = new HashMap<>();

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

    /**
     * A refresh job found on the cluster at start: when it began is not known, so neither is its
     * rate; it reports nothing.
     */
    void attached(String jobId) {
        looks.computeIfAbsent(jobId, id -> new Look()).startUnknown = true;
    }

    /** The refresh of {@code jobId} ended: nothing more is looked at. */
    void ended(String jobId) {
        looks.remove(jobId);
    }

    /**
     * Reports how far the running refresh is: looked at every {@link #FIRST_LOOKS_EVERY} until its
     * sources' metrics answer, then every {@link SourceLoads#LOAD_REPORT_EVERY}.
     */
    void report(Pipeline pipeline) {
        String jobId = pipeline.refreshJobId;
        if (looks.size() > 1_000) {
            looks.clear(); // refreshes stopped another way (a drop): a plain bound, as elsewhere
        }
        Look look = looks.computeIfAbsent(jobId, id -> new Look());
        Instant now = clock.instant();
        Duration every = look.reported ? SourceLoads.LOAD_REPORT_EVERY : FIRST_LOOKS_EVERY;
        if (look.startUnknown || look.at != null && now.isBefore(look.at.plus(every))) {
            return;
        }
        look.at = now;
        Optional<SourceProgress> withPending =
                Boolean.FALSE.equals(look.sourcesSayLeft)
                        ? Optional.empty()
                        : flink.sourceProgress(jobId);
        long read;
        Long toRead = pipeline.refreshRecordsToRead;
        if (withPending.isPresent()) {
            // Every source says what it has left (Kafka: its lag behind the topic's end). Before
            // its
            // first fetch a Kafka source has nothing pending: no total while nothing is known.
            look.sourcesSayLeft = true;
            read = withPending.get().recordsRead();
            long all = read + withPending.get().pendingRecords();
            toRead = all == 0 ? null : all;
        } else {
            OptionalLong sourcesRead = flink.sourceRecordsRead(jobId);
            if (sourcesRead.isEmpty()) {
                return; // its sources' metrics are not registered yet
            }
            if (look.sourcesSayLeft == null) {
                look.sourcesSayLeft = false; // registered, and one cannot say: not asked again
            }
            read = sourcesRead.getAsLong();
        }
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
        look.reported = true;
    }
}
