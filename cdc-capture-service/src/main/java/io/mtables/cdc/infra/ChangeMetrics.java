package io.mtables.cdc.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Capture as Prometheus metrics on {@code /q/metrics}, per change topic (one per captured table):
 * {@code mt_cdc_changes_total{topic}} published, and {@code mt_cdc_capture_lag_seconds{topic}},
 * how long before its publication the newest published change was committed in PostgreSQL (the
 * envelope's {@code source.ts_ms}, else its {@code ts_ms}).
 */
final class ChangeMetrics {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, Double> lagSeconds = new ConcurrentHashMap<>();

  ChangeMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /**
   * Counts {@code count} changes published to {@code topic}, the newest of which is {@code newest}
   * (a Debezium JSON envelope, or null for a tombstone).
   */
  void published(String topic, int count, String newest) {
    registry.counter("mt.cdc.changes", "topic", topic).increment(count);
    Long committed = commitMillis(newest);
    if (committed == null) {
      return;
    }
    if (lagSeconds.put(topic, Math.max(0, clock.millis() - committed) / 1000.0) == null) {
      Gauge.builder("mt.cdc.capture.lag", lagSeconds, lags -> lags.getOrDefault(topic, Double.NaN))
          .tag("topic", topic).baseUnit("seconds").description("Publication time minus PostgreSQL's commit time of the newest change published")
          .register(registry);
    }
  }

  private static Long commitMillis(String envelope) {
    if (envelope == null) {
      return null;
    }
    try {
      JsonNode event = JSON.readTree(envelope);
      event = event.has("payload") ? event.path("payload") : event;
      // The commit time in PostgreSQL, else when Debezium processed the change.
      JsonNode committed = event.path("source").path("ts_ms");
      return committed.isNumber() ? committed.asLong() : event.path("ts_ms").isNumber() ? event.path("ts_ms").asLong() : null;
    } catch (java.io.IOException e) {
      return null; // not an envelope: counted, not timed
    }
  }
}
