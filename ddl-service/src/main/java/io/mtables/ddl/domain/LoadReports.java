package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.LoadProgress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each table's jobs catching up through their sources, as their {@code LoadProgress} events say:
 * per job, the last report and the first (where its rate is measured from). A table has two at once
 * during a switch-over: the job serving it (the last CONTINUOUS {@code JobStarted}), and the staged
 * job rebuilding its new query; each is read by its own id, so neither is taken for the other.
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

    /** By table, the streaming job serving it. */
    private final Map<String, String> serving = new ConcurrentHashMap<>();

    void report(LoadProgress event) {
        tables.computeIfAbsent(event.table(), table -> new ConcurrentHashMap<>())
                .merge(
                        event.jobId(),
                        new Reports(event, event),
                        (known, next) -> known.with(next.latest()));
    }

    /**
     * The table's streaming job {@code jobId} started and serves it: the loads of its other jobs
     * are over, but for the staged job of a switch-over under way ({@code staging}, or null).
     */
    void started(String table, String jobId, String staging) {
        serving.put(table, jobId);
        jobs(table).keySet().removeIf(job -> !job.equals(jobId) && !job.equals(staging));
    }

    /**
     * A staged job {@code jobId} started beside the job serving the table: the loads of any other
     * (an earlier staged job that failed) are over.
     */
    void staging(String table, String jobId) {
        String servingJob = serving.get(table);
        jobs(table).keySet().removeIf(job -> !job.equals(jobId) && !job.equals(servingJob));
    }

    /** The load of the job serving the table; empty when it never reported. */
    Optional<LoadEstimate> serving(String table) {
        return estimateOf(table, serving.get(table));
    }

    /** The estimate of one job of the table; empty when it never reported. */
    Optional<LoadEstimate> estimateOf(String table, String jobId) {
        return Optional.ofNullable(jobId == null ? null : jobs(table).get(jobId))
                .map(job -> LoadEstimate.of(job.first(), job.latest()));
    }

    /** One job of the table stopped (a staged job that failed): its load is over. */
    void forgetJob(String table, String jobId) {
        jobs(table).remove(jobId);
    }

    /** The table's jobs stopped, or it was dropped: no load goes on until the next report. */
    void forget(String table) {
        tables.remove(table);
        serving.remove(table);
    }

    private Map<String, Reports> jobs(String table) {
        return tables.getOrDefault(table, Map.of());
    }
}
