package io.mtables.ddl.domain;

import io.mtables.schemas.refresh.RefreshProgress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each FULL table's running refresh, as its last {@code RefreshProgress} said, until its end (its
 * {@code RefreshSucceeded} or {@code RefreshFailed}) or another job of the table starts. A refresh
 * the job manager stopped reporting on for {@link #SILENT_AFTER} is not running any more: its job
 * was lost without a word (the embedded cluster goes with a job manager that restarts).
 */
final class RefreshRuns {

    /** A running refresh reports every 5 s: one silent this long is over. */
    static final Duration SILENT_AFTER = Duration.ofMinutes(1);

    private final Map<String, RefreshProgress> running = new ConcurrentHashMap<>();
    private final Clock clock;

    RefreshRuns(Clock clock) {
        this.clock = clock;
    }

    void report(RefreshProgress event) {
        running.merge(
                event.table(),
                event,
                (known, next) -> next.reportedAt().isBefore(known.reportedAt()) ? known : next);
    }

    /** How far the table's running refresh is; empty when none runs. */
    Optional<RefreshRunEstimate> estimate(String table) {
        return Optional.ofNullable(running.get(table))
                .filter(last -> last.reportedAt().isAfter(clock.instant().minus(SILENT_AFTER)))
                .map(RefreshRunEstimate::of);
    }

    /** The refresh of job {@code jobId} ended. */
    void ended(String table, String jobId) {
        running.computeIfPresent(table, (key, run) -> run.jobId().equals(jobId) ? null : run);
    }

    /** Job {@code jobId} of the table started: a refresh of another job is over. */
    void started(String table, String jobId) {
        running.computeIfPresent(table, (key, run) -> run.jobId().equals(jobId) ? run : null);
    }

    void forget(String table) {
        running.remove(table);
    }
}
