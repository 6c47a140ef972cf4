package io.mtables.cdc.infra;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Capture as Prometheus metrics on {@code /q/metrics}, per change topic (one per captured table):
 * {@code mt_cdc_changes_total{topic}} published, and {@code mt_cdc_capture_lag_seconds{topic}}, how
 * long before its publication the newest published change was committed in PostgreSQL (the
 * envelope's {@code source.ts_ms}, else its {@code ts_ms}).
 */
final class ChangeMetrics {

    private final MeterRegistry registry;
    private final Clock clock;
    private final Map<String, Double> lagSeconds = new ConcurrentHashMap<>();

    ChangeMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Counts {@code count} changes published to {@code topic}, the newest of which was committed at
     * {@code newestCommitMillis} (empty: only tombstones, or not envelopes).
     */
    void published(String topic, int count, OptionalLong newestCommitMillis) {
        registry.counter("mt.cdc.changes", "topic", topic).increment(count);
        if (newestCommitMillis.isEmpty()) {
            return;
        }
        if (lagSeconds.put(
                        topic,
                        Math.max(0, clock.millis() - newestCommitMillis.getAsLong()) / 1000.0)
                == null) {
            Gauge.builder(
                            "mt.cdc.capture.lag",
                            lagSeconds,
                            lags -> lags.getOrDefault(topic, Double.NaN))
                    .tag("topic", topic)
                    .baseUnit("seconds")
                    .description(
                            "Publication time minus PostgreSQL's commit time of the newest change"
                                    + " published")
                    .register(registry);
        }
    }
}
