package io.mtables.refreshscheduler.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The scheduler's ticks as Prometheus metrics on {@code /q/metrics}: {@code
 * mt_scheduler_ticks_total{reason}} written, {@code mt_scheduler_tick_jitter_seconds} (how late a
 * scheduled tick was written after its boundary, a histogram) and {@code
 * mt_scheduler_tick_write_failures_total}.
 */
final class TickMetrics {

    private static final Duration[] BUCKETS = {
        Duration.ofMillis(10),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(30)
    };

    private final MeterRegistry registry;
    private final Timer jitter;

    TickMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.jitter =
                Timer.builder("mt.scheduler.tick.jitter")
                        .description(
                                "How late a scheduled tick was written after its period boundary")
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry);
    }

    void written(List<RefreshTick> ticks, Instant at) {
        for (RefreshTick tick : ticks) {
            registry.counter("mt.scheduler.ticks", "reason", tick.reason().name()).increment();
            if (tick.reason() == RefreshTick.Reason.SCHEDULED) {
                jitter.record(Duration.between(tick.scheduledTime(), at));
            }
        }
    }

    void writeFailed(int ticks) {
        registry.counter("mt.scheduler.tick.write.failures").increment(ticks);
    }
}
