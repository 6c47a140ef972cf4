package io.mtables.jobmanager.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Suspended;
import java.time.Duration;

/**
 * The job manager's outcomes as Prometheus metrics on {@code /q/metrics}, counted as their events
 * are written: {@code mt_refreshes_total{table, mode, outcome}} (REFRESHED, NO_DATA or FAILED),
 * {@code mt_refresh_duration_seconds{table}} (a FULL refresh, from being taken up to its commit, as
 * a histogram), {@code mt_table_suspensions_total{table, cause}} (STATEMENT or FAILURES) and {@code
 * mt_job_restarts_total{table}} (restarts of a streaming job by Flink's restart strategy).
 */
public class RefreshMetrics {

    /** Histogram buckets: a refresh takes from under a second to many minutes. */
    private static final Duration[] BUCKETS = {
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofMinutes(1),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofHours(1)
    };

    private final MeterRegistry registry;

    public RefreshMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void succeeded(RefreshSucceeded event) {
        String outcome =
                event.outcome() == null
                        ? RefreshSucceeded.Outcome.REFRESHED.name()
                        : event.outcome().name();
        registry.counter(
                        "mt.refreshes",
                        "table",
                        event.table(),
                        "mode",
                        event.mode().name(),
                        "outcome",
                        outcome)
                .increment();
        if (event.mode() == RefreshPlan.Mode.FULL
                && event.startedAt() != null
                && event.finishedAt() != null) {
            Timer.builder("mt.refresh.duration")
                    .description(
                            "A FULL refresh, from being taken up by the job manager to its commit")
                    .tag("table", event.table())
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry)
                    .record(Duration.between(event.startedAt(), event.finishedAt()));
        }
    }

    void failed(RefreshFailed event) {
        registry.counter(
                        "mt.refreshes",
                        "table",
                        event.table(),
                        "mode",
                        event.mode().name(),
                        "outcome",
                        "FAILED")
                .increment();
    }

    void restarted(String table, long restarts) {
        registry.counter("mt.job.restarts", "table", table).increment(restarts);
    }

    void suspended(Suspended event) {
        String cause =
                event.cause() == null ? Suspended.Cause.STATEMENT.name() : event.cause().name();
        registry.counter("mt.table.suspensions", "table", event.table(), "cause", cause)
                .increment();
    }
}
