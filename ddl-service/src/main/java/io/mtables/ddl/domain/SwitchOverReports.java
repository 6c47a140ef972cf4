package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.StateRestored;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Each table's latest switch-over to a new query, restore of its state, and rebuild after an
 * input's rows were replaced, as the job manager's events say: under way (and by which staged job),
 * or done, in words for DESCRIBE.
 */
final class SwitchOverReports {

    /** A staged job's load through its sources: (table, job id) to its estimate. */
    private final BiFunction<String, String, Optional<LoadEstimate>> stagedLoads;

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

    /**
     * @param stagedLoads the load of a table's staged job, as it reports it
     */
    SwitchOverReports(BiFunction<String, String, Optional<LoadEstimate>> stagedLoads) {
        this.stagedLoads = stagedLoads;
    }

    /** The staged job of the table's switch-over or rebuild under way; null when none is. */
    String stagingJob(String table) {
        if (switches.get(table) instanceof SwitchStarted started) {
            return started.jobId();
        }
        return rebuilds.get(table) instanceof SwitchStarted started ? started.jobId() : null;
    }

    /** The staged job's progress through its sources, in words after a "; "; empty before any. */
    private String progress(SwitchStarted started) {
        return stagedLoads
                .apply(started.table(), started.jobId())
                .map(load -> "; " + load.inWords())
                .orElse("");
    }

    void forget(String table) {
        switches.remove(table);
        rebuilds.remove(table);
    }

    void apply(SwitchStarted event) {
        (event.replacedInput() == null ? switches : rebuilds).put(event.table(), event);
    }

    /**
     * The end of a rebuild or of a switch-over to a new query (both, when a rebuild took over a
     * staging of the new query).
     */
    void apply(SwitchedOver event) {
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
    Optional<String> rebuild(String table) {
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
                            + "); readers read the rows from before until it has caught up"
                            + progress(started));
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

    void apply(StateRestored event) {
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
    Optional<String> switchOver(String table) {
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
                            + "'s rows until it has caught up"
                            + progress(started));
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
                            + " until it has caught up"
                            + progress(started));
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
}
