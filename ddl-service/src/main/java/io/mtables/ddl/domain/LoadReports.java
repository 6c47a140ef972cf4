package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.LoadProgress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each table's streaming job catching up through its sources, as its {@code LoadProgress} events
 * say: the last report, and the first of the same job (where its rate is measured from).
 */
final class LoadReports {

    private final Map<String, LoadProgress> latest = new ConcurrentHashMap<>();
    private final Map<String, LoadProgress> first = new ConcurrentHashMap<>();

    void report(LoadProgress event) {
        latest.merge(
                event.table(),
                event,
                (known, next) -> next.reportedAt().isBefore(known.reportedAt()) ? known : next);
        first.merge(
                event.table(),
                event,
                (known, next) ->
                        !known.jobId().equals(next.jobId())
                                        || next.reportedAt().isBefore(known.reportedAt())
                                ? next
                                : known);
    }

    Optional<LoadProgress> latest(String table) {
        return Optional.ofNullable(latest.get(table));
    }

    Optional<LoadEstimate> estimate(String table) {
        return latest(table).map(last -> LoadEstimate.of(first.getOrDefault(table, last), last));
    }

    /** The job stopped, or another started: no load goes on until the next report. */
    void forget(String table) {
        latest.remove(table);
        first.remove(table);
    }
}
