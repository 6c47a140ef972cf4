package io.mtables.messaging;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Runs a service's warm-up (the first table's Flink work done once at start, see {@code
 * io.mtables.planning.WarmUp}) and reports it: {@code mt_warm_up_seconds{part}} how long it took,
 * {@code mt_warm_up_failures_total{part}} when it failed. A failed warm-up costs only speed (the
 * first table compiles cold), so it does not take readiness down; the counter and the log say it.
 */
public final class WarmUps {

    private static final Logger LOG = Logger.getLogger(WarmUps.class);

    private WarmUps() {}

    /** Runs {@code warmUp}, named {@code part} in the log and the metrics. */
    public static void run(String part, Runnable warmUp, MeterRegistry registry) {
        long start = System.nanoTime();
        try {
            warmUp.run();
        } catch (RuntimeException e) {
            registry.counter("mt.warm.up.failures", "part", part).increment();
            LOG.warnf(e, "warming up %s failed; the first table compiles cold", part);
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Timer.builder("mt.warm.up")
                .description("How long a warm-up at the service's start took")
                .tag("part", part)
                .register(registry)
                .record(took);
        LOG.infof("warmed up %s in %d ms", part, took.toMillis());
    }
}
