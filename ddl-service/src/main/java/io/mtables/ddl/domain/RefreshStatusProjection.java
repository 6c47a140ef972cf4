package io.mtables.ddl.domain;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.StateRestored;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * What the job manager last said about each table (its events on {@code mt.refresh.events}): the
 * status, the job, the last refresh and the last error, for DESCRIBE and information_schema.
 */
public class RefreshStatusProjection {

    /**
     * A table's refresh status.
     *
     * @param status INITIALIZING (no job yet), QUEUED (waiting for task slots), ACTIVATED,
     *     SUSPENDED or FAILED
     * @param definitionVersion the version the last event was about
     * @param jobId the streaming job, or the last refresh job
     * @param jobStartedAt when the streaming job started; null for FULL tables
     * @param lastRefresh when data was last committed
     * @param lastSnapshotId the snapshot of that commit
     * @param lastError the last failure, cleared by the next success
     * @param dataTimestamp the whole table holds every change up to this time (its own refreshes
     *     only: a refresh of one named partition does not move it); null until the first
     * @param suspendedVersion the definition version the job manager last suspended the table at
     *     (0: never)
     * @param queuedReason while QUEUED: what its streaming job waits for (task slots), else null
     */
    public record RefreshStatus(
            String status,
            long definitionVersion,
            String jobId,
            Instant jobStartedAt,
            Instant lastRefresh,
            Long lastSnapshotId,
            String lastError,
            Instant dataTimestamp,
            long suspendedVersion,
            String queuedReason) {

        static RefreshStatus initial() {
            return new RefreshStatus(
                    "INITIALIZING", 0, null, null, null, null, null, null, 0, null);
        }
    }

    private final Map<String, RefreshStatus> statuses = new ConcurrentHashMap<>();

    private final LoadReports loads = new LoadReports();

    private final RefreshRuns refreshRuns;

    private final SwitchOverReports switchOvers = new SwitchOverReports(loads::estimateOf);

    /** Tables whose last suspension was the job manager's, after failures (not a statement). */
    private final Set<String> suspendedAfterFailures = ConcurrentHashMap.newKeySet();

    public RefreshStatusProjection() {
        this(Clock.systemUTC());
    }

    /**
     * @param clock what a running refresh's silence is measured by
     */
    public RefreshStatusProjection(Clock clock) {
        this.refreshRuns = new RefreshRuns(clock);
    }

    public Optional<RefreshStatus> find(String table) {
        return Optional.ofNullable(statuses.get(table));
    }

    /** A streaming job's progress through its sources. */
    public void apply(LoadProgress event) {
        loads.report(event);
    }

    /** Whether the table is SUSPENDED, by the job manager after failures. */
    public boolean suspendedAfterFailures(String table) {
        return suspendedAfterFailures.contains(table)
                && find(table).filter(s -> s.status().equals("SUSPENDED")).isPresent();
    }

    /**
     * The load of the job serving the table, with its percentage and time left; empty when never
     * reported.
     */
    public Optional<LoadEstimate> loadEstimate(String table) {
        return loads.serving(table);
    }

    /**
     * The load of the staged job of the table's switch-over or rebuild under way (its new query
     * read from its sources beside the job serving it); empty when none is under way or it has not
     * reported.
     */
    public Optional<LoadEstimate> rebuildEstimate(String table) {
        return loads.estimateOf(table, switchOvers.stagingJob(table));
    }

    /** How far a FULL table's running refresh is. */
    public void apply(RefreshProgress event) {
        refreshRuns.report(event);
    }

    /**
     * The table's running refresh, how far it is and how long it has left; empty when none runs.
     */
    public Optional<RefreshRunEstimate> refreshEstimate(String table) {
        return refreshRuns.estimate(table);
    }

    public void apply(JobQueued event) {
        update(
                event.table(),
                s ->
                        new RefreshStatus(
                                "QUEUED",
                                event.definitionVersion(),
                                null,
                                null,
                                s.lastRefresh(),
                                s.lastSnapshotId(),
                                s.lastError(),
                                s.dataTimestamp(),
                                s.suspendedVersion(),
                                event.reason()));
    }

    public void apply(JobStarted event) {
        if (event.mode() == RefreshPlan.Mode.CONTINUOUS) {
            loads.started(event.table(), event.jobId(), switchOvers.stagingJob(event.table()));
        }
        refreshRuns.started(event.table(), event.jobId());
        update(
                event.table(),
                s ->
                        event.mode() == RefreshPlan.Mode.CONTINUOUS
                                ? new RefreshStatus(
                                        "ACTIVATED",
                                        event.definitionVersion(),
                                        event.jobId(),
                                        event.startedAt(),
                                        s.lastRefresh(),
                                        s.lastSnapshotId(),
                                        s.lastError(),
                                        s.dataTimestamp(),
                                        s.suspendedVersion(),
                                        null)
                                : new RefreshStatus(
                                        s.status().equals("FAILED") ? s.status() : "ACTIVATED",
                                        event.definitionVersion(),
                                        event.jobId(),
                                        null,
                                        s.lastRefresh(),
                                        s.lastSnapshotId(),
                                        s.lastError(),
                                        s.dataTimestamp(),
                                        s.suspendedVersion(),
                                        s.queuedReason()));
    }

    public void apply(RefreshSucceeded event) {
        if (event.jobId() != null) {
            refreshRuns.ended(event.table(), event.jobId());
        }
        update(
                event.table(),
                s ->
                        new RefreshStatus(
                                "ACTIVATED",
                                event.definitionVersion(),
                                event.jobId() == null ? s.jobId() : event.jobId(),
                                s.jobStartedAt(),
                                event.finishedAt(),
                                event.snapshotId(),
                                null,
                                wholeTableDataTimestamp(s.dataTimestamp(), event),
                                s.suspendedVersion(),
                                event.mode() == RefreshPlan.Mode.CONTINUOUS
                                        ? null
                                        : s.queuedReason()));
    }

    /**
     * The newer of the two, unless the event refreshed only a named partition (the rest is as old
     * as it was).
     */
    private static Instant wholeTableDataTimestamp(Instant known, RefreshSucceeded event) {
        boolean wholeTable = event.partition() == null || event.partition().isEmpty();
        if (!wholeTable || event.dataTimestamp() == null) {
            return known;
        }
        return known == null || event.dataTimestamp().isAfter(known)
                ? event.dataTimestamp()
                : known;
    }

    public void apply(RefreshFailed event) {
        if (event.jobId() != null) {
            refreshRuns.ended(event.table(), event.jobId());
            if (event.jobId().equals(switchOvers.stagingJob(event.table()))) {
                loads.forgetJob(event.table(), event.jobId()); // the staged job failed
            }
        }
        update(
                event.table(),
                s ->
                        new RefreshStatus(
                                "FAILED",
                                event.definitionVersion(),
                                event.jobId() == null ? s.jobId() : event.jobId(),
                                s.jobStartedAt(),
                                s.lastRefresh(),
                                s.lastSnapshotId(),
                                event.reason(),
                                s.dataTimestamp(),
                                s.suspendedVersion(),
                                s.queuedReason()));
    }

    public void apply(Suspended event) {
        if (event.cause() == Suspended.Cause.FAILURES) {
            suspendedAfterFailures.add(event.table());
        } else {
            suspendedAfterFailures.remove(event.table());
        }
        loads.forget(event.table());
        refreshRuns.forget(event.table());
        update(
                event.table(),
                s ->
                        new RefreshStatus(
                                "SUSPENDED",
                                event.definitionVersion(),
                                null,
                                null,
                                s.lastRefresh(),
                                s.lastSnapshotId(),
                                event.cause() == Suspended.Cause.FAILURES
                                        ? event.reason()
                                        : s.lastError(),
                                s.dataTimestamp(),
                                event.definitionVersion(),
                                null));
    }

    public void apply(Resumed event) {
        update(
                event.table(),
                s ->
                        new RefreshStatus(
                                "ACTIVATED",
                                event.definitionVersion(),
                                s.jobId(),
                                s.jobStartedAt(),
                                s.lastRefresh(),
                                s.lastSnapshotId(),
                                null,
                                s.dataTimestamp(),
                                s.suspendedVersion(),
                                null));
    }

    public void apply(Dropped event) {
        statuses.remove(event.table());
        loads.forget(event.table());
        refreshRuns.forget(event.table());
        suspendedAfterFailures.remove(event.table());
        switchOvers.forget(event.table());
    }

    public void apply(SwitchStarted event) {
        switchOvers.apply(event);
        loads.staging(event.table(), event.jobId());
    }

    /**
     * The end of a rebuild or of a switch-over to a new query: the staged job's load is over, and
     * the job it stopped with is started again (its own JobStarted).
     */
    public void apply(SwitchedOver event) {
        switchOvers.apply(event);
        loads.forget(event.table());
    }

    public void apply(StateRestored event) {
        switchOvers.apply(event);
    }

    /**
     * The table's latest rebuild because an input's rows were replaced, in words (under way, with
     * how far, or done); empty when none was seen.
     */
    public Optional<String> rebuild(String table) {
        return switchOvers.rebuild(table);
    }

    /**
     * The table's latest switch-over to a new query, or restore of its state into one, in words
     * (under way, with how far, or done); empty when none was seen.
     */
    public Optional<String> switchOver(String table) {
        return switchOvers.switchOver(table);
    }

    private void update(String table, UnaryOperator<RefreshStatus> change) {
        statuses.compute(
                table,
                (key, known) -> change.apply(known == null ? RefreshStatus.initial() : known));
    }
}
