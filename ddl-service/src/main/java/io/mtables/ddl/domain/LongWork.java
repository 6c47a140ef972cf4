package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * The long work under way on a table, as the other services report it: its sources' snapshot by the
 * capture (their rows readable only once it ends), its streaming job catching up through its
 * sources, its new query rebuilt beside it by a staged job, a FULL refresh running. Each with how
 * far it is and how long it has left, for DESCRIBE, information_schema, the metrics and the
 * console.
 */
public class LongWork {

    private final RefreshStatusProjection statuses;
    private final CaptureSnapshotProjection captures;
    private final Function<String, Optional<TableDefinition>> definitions;

    /**
     * @param definitions a table's current definition by name (a source's WITH options say its
     *     topics)
     */
    public LongWork(
            RefreshStatusProjection statuses,
            CaptureSnapshotProjection captures,
            Function<String, Optional<TableDefinition>> definitions) {
        this.statuses = statuses;
        this.captures = captures;
        this.definitions = definitions;
    }

    /** The capture's snapshot that holds back rows of the table's sources; empty when none. */
    public Optional<SnapshotEstimate> sourceSnapshot(TableDefinition table) {
        return captures.underWay(CaptureSnapshotProjection.sourceTopics(table, definitions));
    }

    /**
     * information_schema's progress columns, in order: load_progress, load_time_left,
     * rebuild_progress, rebuild_time_left, refresh_progress, refresh_time_left, snapshot_progress,
     * snapshot_time_left (times left in ms; NULL where none is under way or it is not known).
     */
    public Object[] columns(TableDefinition table) {
        var load = statuses.loadEstimate(table.table());
        var rebuild = statuses.rebuildEstimate(table.table());
        var running = statuses.refreshEstimate(table.table());
        var snapshot = sourceSnapshot(table);
        return new Object[] {
            load.map(LoadEstimate::percent).orElse(null),
            millis(load.flatMap(LoadEstimate::timeLeft)),
            rebuild.map(LoadEstimate::percent).orElse(null),
            millis(rebuild.flatMap(LoadEstimate::timeLeft)),
            running.flatMap(RefreshRunEstimate::percent).orElse(null),
            millis(running.flatMap(RefreshRunEstimate::timeLeft)),
            snapshot.flatMap(SnapshotEstimate::percent).orElse(null),
            millis(snapshot.flatMap(SnapshotEstimate::timeLeft))
        };
    }

    private static Long millis(Optional<Duration> left) {
        return left.map(Duration::toMillis).orElse(null);
    }
}
