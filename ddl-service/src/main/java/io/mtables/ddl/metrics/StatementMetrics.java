package io.mtables.ddl.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Statements at the front door by outcome, {@code mt_statements_total{via, status, reason}}: via
 * rest, wire or kafka, the result's status, and the error's reason (none when it succeeded).
 */
@ApplicationScoped
public class StatementMetrics {

    private final MeterRegistry registry;

    public StatementMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one answered statement. */
    public StatementResult answered(String via, StatementResult result) {
        registry.counter(
                        "mt.statements",
                        "via",
                        via,
                        "status",
                        result.status().name(),
                        "reason",
                        result.error() == null ? "none" : result.error().reason())
                .increment();
        return result;
    }
}
