package io.mtables.messaging;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The service's readiness as a metric, {@code mt_service_ready} (1 ready or standing by, 0 not), so
 * that Prometheus can alert on a service that runs but is not ready: its scrape still answers while
 * {@code /q/health/ready} says DOWN. Each scrape asks the service's readiness checks.
 */
@ApplicationScoped
public class ReadinessMetric {

    void onStart(
            @Observes StartupEvent start,
            MeterRegistry registry,
            @Any @Readiness Instance<HealthCheck> checks) {
        Gauge.builder("mt.service.ready", checks, ReadinessMetric::ready)
                .description(
                        "1 while the service's readiness checks are all UP (a standby included), 0"
                                + " while any is DOWN")
                .strongReference(true)
                .register(registry);
    }

    static double ready(Iterable<HealthCheck> checks) {
        for (HealthCheck check : checks) {
            try {
                if (check.call().getStatus() != HealthCheckResponse.Status.UP) {
                    return 0;
                }
            } catch (RuntimeException e) {
                return 0; // a check that cannot answer is not UP
            }
        }
        return 1;
    }
}
