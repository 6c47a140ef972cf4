package io.mtables.ddl.domain;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.StateRestored;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
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

    /** Tables whose last suspension was the job manager's, after failures (not a statement). */
    private final Set<String> suspendedAfterFailures = ConcurrentHashMap.newKeySet();

    /** The latest switch-over of each table to a new query: started, or done. */
    private final Map<String, Object> switches = new ConcurrentHashMap<>();

    /**
     * The latest rebuild of each table whose input's rows were replaced: its SwitchStarted, or
     * {@link Rebuilt}.
     */
    private final Map<String, Object> rebuilds = new ConcurrentHashMap<>();

    /** A rebuild done: the input it was for, and its switch-over. */
    private record Rebuilt(String replacedInput, SwitchedOver switched) {}

    /** A COMPATIBLE change restored beside the table: its staging, then its switch. */
    private record RestoredBeside(SwitchStarted started, SwitchedOver switched) {}

    public Optional<RefreshStatus> find(String table) {
        return Optional.ofNullable(statuses.get(table));
    }

    /** A streaming job's progress through its sources. */
    public void apply(LoadProgress event) {
        loads.report(event);
    }

    /**
     * How far the table's streaming job is through its sources, as last reported; empty when never.
     */
    public Optional<LoadProgress> load(String table) {
        return loads.latest(table);
    }

    /** Whether the table is SUSPENDED, by the job manager after failures. */
    public boolean suspendedAfterFailures(String table) {
        return suspendedAfterFailures.contains(table)
                && find(table).filter(s -> s.status().equals("SUSPENDED")).isPresent();
    }

    /** The table's load with its percentage and time left; empty when never reported. */
    public Optional<LoadEstimate> loadEstimate(String table) {
        return loads.estimate(table);
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
        if (load(event.table()).filter(l -> !l.jobId().equals(event.jobId())).isPresent()) {
            loads.forget(event.table());
        }
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
        suspendedAfterFailures.remove(event.table());
        switches.remove(event.table());
        rebuilds.remove(event.table());
    }

    public void apply(SwitchStarted event) {
        (event.replacedInput() == null ? switches : rebuilds).put(event.table(), event);
    }

    /**
     * The end of a rebuild or of a switch-over to a new query (both, when a rebuild took over a
     * staging of the new query).
     */
    public void apply(SwitchedOver event) {
        String table = event.table();
        SwitchStarted rebuild =
                rebuilds.get(table) instanceof SwitchStarted started
                                && started.definitionVersion() == event.definitionVersion()
                        ? started
                        : null;
        if (rebuild != null) {
            rebuilds.put(table, new Rebuilt(rebuild.replacedInput(), event));
        }
        Object latest = switches.get(table);
        if (latest instanceof SwitchStarted pending
                && pending.definitionVersion() == event.definitionVersion()
                && pending.restoredFrom() != null) {
            switches.put(table, new RestoredBeside(pending, event));
        } else if (rebuild == null
                || latest instanceof SwitchStarted pending
                        && pending.definitionVersion() == event.definitionVersion()) {
            switches.put(table, event);
        }
    }

    /**
     * The table's latest rebuild because an input's rows were replaced, in words (under way, or
     * done); empty when none was seen.
     */
    public Optional<String> rebuild(String table) {
        Object latest = rebuilds.get(table);
        if (latest instanceof SwitchStarted started) {
            return Optional.of(
                    "rebuilding since "
                            + started.startedAt()
                            + ": the rows of "
                            + started.replacedInput()
                            + " were replaced, so the query of v"
                            + started.definitionVersion()
                            + " is read anew from them into "
                            + started.stagedTable()
                            + " (job "
                            + started.jobId()
                            + "); readers read the rows from before until it has caught up");
        }
        if (latest instanceof Rebuilt done) {
            return Optional.of(
                    "rebuilt at "
                            + done.switched().switchedAt()
                            + ": the rows of "
                            + done.replacedInput()
                            + " were replaced, and the query of v"
                            + done.switched().definitionVersion()
                            + " was read anew from them in "
                            + Duration.between(
                                            done.switched().stagedAt(),
                                            done.switched().switchedAt())
                                    .toSeconds()
                            + " s");
        }
        return Optional.empty();
    }

    public void apply(StateRestored event) {
        switches.put(event.table(), event);
    }

    /** Seed 004's bridge of a switch-over, in words; empty when there was none. */
    private static String bridged(SwitchedOver.Bridged bridge) {
        if (bridge == null) {
            return "";
        }
        return "; bridged: the old query's rows with "
                + bridge.column()
                + " up to "
                + bridge.cutOver()
                + " kept, the new query's after it"
                + (bridge.newRowsFrom() != null
                                && bridge.newRowsFrom().compareTo(bridge.cutOver()) > 0
                        ? " (its rows begin at "
                                + bridge.newRowsFrom()
                                + ": the windows between may be missing or partial)"
                        : "");
    }

    /**
     * The table's latest switch-over to a new query, or restore of its state into one, in words
     * (under way, or done); empty when none was seen.
     */
    public Optional<String> switchOver(String table) {
        Object latest = switches.get(table);
        if (latest instanceof SwitchStarted started && started.restoredFrom() != null) {
            return Optional.of(
                    "restoring beside the table: since "
                            + started.startedAt()
                            + " the query of v"
                            + started.definitionVersion()
                            + " goes on from v"
                            + started.fromVersion()
                            + "'s savepoint "
                            + started.restoredFrom()
                            + " into "
                            + started.stagedTable()
                            + " (job "
                            + started.jobId()
                            + "), the rows written by then rewritten; readers read v"
                            + started.fromVersion()
                            + "'s rows until it has caught up");
        }
        if (latest instanceof RestoredBeside restored) {
            SwitchedOver switched = restored.switched();
            return Optional.of(
                    String.format(
                            Locale.ROOT,
                            "state restored at %s: the query of v%d went on from v%d's savepoint"
                                    + " %s beside the table, its sources not read again and the"
                                    + " rows written rewritten into the new query's; readers"
                                    + " read it after %d s (the name named no table for %.1f"
                                    + " ms); its job goes on from %s",
                            switched.switchedAt(),
                            switched.definitionVersion(),
                            restored.started().fromVersion(),
                            restored.started().restoredFrom(),
                            Duration.between(switched.stagedAt(), switched.switchedAt())
                                    .toSeconds(),
                            switched.nameGapMillis(),
                            switched.savepoint()));
        }
        if (latest instanceof SwitchStarted started) {
            return Optional.of(
                    "switching over: since "
                            + started.startedAt()
                            + " the query of v"
                            + started.definitionVersion()
                            + " fills "
                            + started.stagedTable()
                            + " (job "
                            + started.jobId()
                            + ")"
                            + (started.fromVersion() > 0
                                    ? "; readers read v" + started.fromVersion() + "'s rows"
                                    : "")
                            + " until it has caught up");
        }
        if (latest instanceof SwitchedOver switched) {
            return Optional.of(
                    String.format(
                                    Locale.ROOT,
                                    "switched over at %s: readers read the query of v%d after %d s"
                                        + " of staging (the name named no table for %.1f ms); its"
                                        + " job goes on from %s",
                                    switched.switchedAt(),
                                    switched.definitionVersion(),
                                    Duration.between(switched.stagedAt(), switched.switchedAt())
                                            .toSeconds(),
                                    switched.nameGapMillis(),
                                    switched.savepoint())
                            + bridged(switched.bridge()));
        }
        if (latest instanceof StateRestored restored) {
            return Optional.of(
                    String.format(
                            Locale.ROOT,
                            "state restored at %s: the query of v%d goes on from v%d's savepoint"
                                    + " %s, its sources not read again; the rows written were"
                                    + " rewritten into the new query's, the table taking no new"
                                    + " data for %.1f s",
                            restored.restoredAt(),
                            restored.definitionVersion(),
                            restored.fromVersion(),
                            restored.savepoint(),
                            Duration.between(restored.stoppedAt(), restored.restoredAt()).toMillis()
                                    / 1000.0));
        }
        return Optional.empty();
    }

    private void update(String table, UnaryOperator<RefreshStatus> change) {
        statuses.compute(
                table,
                (key, known) -> change.apply(known == null ? RefreshStatus.initial() : known));
    }
}
