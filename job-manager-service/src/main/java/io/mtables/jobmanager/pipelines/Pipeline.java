package io.mtables.jobmanager.pipelines;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.SwitchedOver;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What the job manager knows and runs for one materialized table. Touched by the control thread
 * only.
 */
final class Pipeline {

    /** The table's state as DESCRIBE shows it. */
    enum Status {
        INITIALIZING,
        /** Its streaming job waits for free task slots (see {@link SlotBudget}). */
        QUEUED,
        ACTIVATED,
        SUSPENDED,
        FAILED
    }

    /** A FULL refresh in flight, or waiting for the one in flight. */
    record Refresh(
            String id,
            Map<String, String> partition,
            Instant dataTimestamp,
            RefreshTick.Reason reason) {}

    final String table;
    TableDefinition definition;
    RefreshPlan plan;
    long appliedPlanVersion;

    /** Failed tries to apply the plan, in a row, and when the next is due (null: at once). */
    int failedApplies;

    Instant retryApplyAt;

    /** Changed by {@link #on} alone: {@link TableLifecycle} decides. */
    private Status status = Status.INITIALIZING;

    /** The streaming job, the definition version it runs and the fingerprint of its query. */
    String streamingJobId;

    long streamingJobVersion;
    String streamingJobQuery;

    /**
     * A new query filling its staged table while the table's job serves readers (see {@link
     * SwitchOvers}); null when none.
     */
    Staging staging;

    /** A switch-over in progress. */
    static final class Staging {
        final String jobId;
        final long version;

        /**
         * The version whose query serves readers until the switch; 0 when not known (taken over
         * after a restart).
         */
        final long fromVersion;

        final Instant since;

        /**
         * When the job's sources were first seen with nothing left to read (null: not yet, or they
         * had more again).
         */
        Instant sourcesReadAt;

        /** The savepoint the job stopped with for the switch; set, the switch is under way. */
        String savepoint;

        /**
         * When the switch began (the old job was asked to stop); null after a restart of the
         * service.
         */
        Instant switchBegan;

        /** When the old job was stopped for the switch; null before. */
        Instant oldStoppedAt;

        /**
         * The old query's savepoint the job started from (a COMPATIBLE change restored beside the
         * table); null when it read its sources from their start, or is not known (a restart).
         */
        String restoredFrom;

        /** Whether seed 004's bridge ran (or was not needed) for this switch. */
        boolean bridgeDone;

        /** What the bridge kept; null when none ran or it kept nothing. */
        SwitchedOver.Bridged bridged;

        /** How often the bridge failed for this switch. */
        int bridgeFailures;

        /** When the job's load through its sources was last reported; null: not yet. */
        Instant loadReportedAt;

        /** Whether its load was reported caught up: nothing more is reported. */
        boolean loadOver;

        Staging(String jobId, long version, long fromVersion, Instant since) {
            this.jobId = jobId;
            this.version = version;
            this.fromVersion = fromVersion;
            this.since = since;
        }
    }

    /**
     * A new query's job started from the old query's savepoint (see {@link StateRestores}), until
     * it has completed a checkpoint of its own; null when none.
     */
    Restore restore;

    /**
     * The definition version whose restore was given up: a switch-over carries its change out; 0
     * when none.
     */
    long restoreGivenUp;

    /**
     * @param version the definition version the restored job runs
     * @param oldQuery the fingerprint of the query whose state it restored
     */
    record Restore(long version, String oldQuery) {}

    /**
     * While QUEUED: the saved state the job will start from (null: none), the definition version
     * whose JobQueued was reported, and since when it waits (the queue is first come, first
     * served). Changed by the slot events below alone.
     */
    private String queuedRestore;

    private long queuedVersion;
    private Instant queuedSince;

    /**
     * The streaming job whose sources are looked at, since when, whether they cannot say how far
     * behind they are (not asked again), and how far behind they were at each look.
     */
    String sourcesJobId;

    Instant sourcesSince;
    boolean sourcesSilent;
    final SourceLag sourceLag = new SourceLag();

    /**
     * When the job's load through its sources was last reported, and whether the load is over
     * (caught up).
     */
    Instant loadReportedAt;

    boolean loadOver;

    /**
     * Since when the sources have had nothing left to read with the same count of records read
     * (null while they have records left): the load is over once that held over two metric samples.
     */
    Instant loadDrainedSince;

    long loadDrainedRead;

    /**
     * A checkpoint asked of the streaming job as soon as it runs, and the answer: after a
     * switch-over readers wait for its first commit, which would otherwise come a checkpoint
     * interval later. Asked again until the job has a completed checkpoint.
     */
    boolean checkpointAsap;

    CompletableFuture<Long> asapCheckpoint;

    /**
     * Flink's restarts of the streaming job reported so far; -1 until first read (a job taken over
     * keeps its past restarts unreported).
     */
    long streamingJobRestarts = -1;

    /**
     * The inputs a successful FULL refresh read: the definition version, each input's data snapshot
     * id, and when the refresh was taken up (an input whose rows were replaced after it numbers its
     * snapshots anew). A refresh of the same partition at the same version over the same snapshots
     * would write what is there already.
     */
    record InputsRead(long definitionVersion, Map<String, Long> dataSnapshots, Instant readAt) {}

    String refreshJobId;
    Refresh refreshRunning;

    /**
     * What the running refresh covers.
     *
     * @param inputSnapshots the data snapshot of each materialized input it reads; null when not
     *     tracked
     * @param changedPartitions the partitions it overwrites because their inputs changed; null when
     *     it overwrites the whole table or the refresh's own partition
     * @param baseline where its inputs are remembered once it succeeds: the refresh's partition, or
     *     the whole table (empty) for a refresh that brings every partition up to date
     * @param tableSnapshotBefore the table's latest snapshot when the refresh started (0: none)
     */
    record RefreshScope(
            Map<String, Long> inputSnapshots,
            List<Map<String, String>> changedPartitions,
            Map<String, String> baseline,
            long tableSnapshotBefore) {}

    RefreshScope refreshScope;

    /** By partition (empty: the whole table), the inputs its last successful refresh read. */
    final Map<Map<String, String>, InputsRead> lastInputs = new HashMap<>();

    Instant refreshStartedAt;

    /**
     * The records the running refresh's sources read in all, when known before it runs (the
     * snapshots of the materialized tables it reads whole); null otherwise.
     */
    Long refreshRecordsToRead;

    Refresh refreshWaiting;

    /** Looks at the ended refresh job that failed to report its end, in a row. */
    int endReportAttempts;

    int coalescedRefreshes;

    int consecutiveFailures;
    long lastSnapshotId;
    Instant lastSnapshotAt;

    /** The streaming job whose checkpoints the two fields below are about. */
    String progressJobId;

    /** That job's newest checkpoint reported (by a snapshot or as NO_DATA). */
    long lastCheckpointReported;

    /** A checkpoint no snapshot had come for when last looked, and when it was seen. */
    QuietCheckpoint quietCheckpoint;

    /**
     * A completed checkpoint with no snapshot (yet): {@code triggeredAt} is the data it stands for.
     */
    record QuietCheckpoint(long id, Instant triggeredAt, long snapshotIdWhenSeen, Instant seenAt) {}

    Pipeline(String table) {
        this.table = table;
    }

    Status status() {
        return status;
    }

    String queuedRestore() {
        return queuedRestore;
    }

    Instant queuedSince() {
        return queuedSince;
    }

    /**
     * Its streaming job waits for slots, to start from {@code restore} (null: no saved state);
     * false when its waiting was reported for this definition version already.
     */
    boolean waitForSlots(String restore, Instant now) {
        boolean reported = status == Status.QUEUED && queuedVersion == definition.version();
        on(TableLifecycle.Event.WAITING_FOR_SLOTS);
        queuedRestore = restore;
        if (queuedSince == null) {
            queuedSince = now;
        }
        queuedVersion = definition.version();
        return !reported;
    }

    /**
     * Its job, which Flink could not place, was cancelled: it waits again, from now on, to start
     * from {@code restore}.
     */
    void requeued(String restore, Instant now) {
        on(TableLifecycle.Event.WAITING_FOR_SLOTS);
        queuedSince = now;
        queuedRestore = restore;
        queuedVersion = definition.version();
    }

    /** Its streaming job was submitted: it waits no more. */
    void jobSubmitted() {
        on(TableLifecycle.Event.JOB_SUBMITTED);
        queuedSince = null;
        queuedRestore = null;
    }

    /** A table it reads had its rows replaced: a queued start would be from the old state. */
    void inputReplaced() {
        on(TableLifecycle.Event.INPUT_REPLACED);
        queuedRestore = null;
    }

    /** The table's status moves as {@code event} says (see {@link TableLifecycle}). */
    void on(TableLifecycle.Event event) {
        status = TableLifecycle.next(status, event);
    }

    /**
     * Whether the plan can be acted on: the definition of exactly its version is known (a newer
     * definition waits for its own plan). A drop needs no definition.
     */
    boolean planReady() {
        return plan != null
                && (plan.status() == RefreshPlan.Status.DROPPED
                        || (definition != null
                                && definition.version() == plan.definitionVersion()));
    }
}
