package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.LoadProgress;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each table's jobs catching up through their sources, as their {@code LoadProgress} events say:
 * per job, the last report and the first (where its rate is measured from). A table has two at once
 * during a switch-over: the job serving it, and the staged job rebuilding its new query.
 */
final class LoadReports {

    /** A job's first and last report. */
    private record Reports(LoadProgress first, LoadProgress latest) {

        Reports with(LoadProgress next) {
            return new Reports(
                    next.reportedAt().isBefore(first.reportedAt()) ? next : first,
                    next.reportedAt().isBefore(latest.reportedAt()) ? latest : next);
        }
    }

    /** By table, then by job id. */
    private final Map<String, Map<String, Reports>> tables = new ConcurrentHashMap<>();

    void report(LoadProgress event) {
        tables.computeIfAbsent(event.table(), table -> new ConcurrentHashMap<>())
                .merge(
                        event.jobId(),
                        new Reports(event, event),
                        (known, next) -> known.with(next.latest()));
    }

    /** The last report of the table's job that reported last, other than {@code except}. */
    Optional<LoadProgress> latest(String table, String except) {
        return jobs(table).entrySet().stream()
                .filter(job -> !job.getKey().equals(except))
                .map(job -> job.getValue().latest())
                .max(Comparator.comparing(LoadProgress::reportedAt));
    }

    /** The estimate of the table's job that reported last, other than {@code except}. */
    Optional<LoadEstimate> estimate(String table, String except) {
        return latest(table, except).flatMap(last -> estimateOf(table, last.jobId()));
    }

    /** The estimate of one job of the table; empty when it never reported. */
    Optional<LoadEstimate> estimateOf(String table, String jobId) {
        return Optional.ofNullable(jobId == null ? null : jobs(table).get(jobId))
                .map(job -> LoadEstimate.of(job.first(), job.latest()));
    }

    /** The jobs of the table that stopped, or were replaced: all but {@code keep}. */
    void forgetAllBut(String table, String keep, String alsoKeep) {
        jobs(table).keySet().removeIf(job -> !job.equals(keep) && !job.equals(alsoKeep));
    }

    /** The table's jobs stopped, or it was dropped: no load goes on until the next report. */
    void forget(String table) {
        tables.remove(table);
    }

    private Map<String, Reports> jobs(String table) {
        return tables.getOrDefault(table, Map.of());
    }
}
