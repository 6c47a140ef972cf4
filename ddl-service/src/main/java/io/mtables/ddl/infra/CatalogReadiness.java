package io.mtables.ddl.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the catalog has been read back from Kafka, while the background loops go round (the
 * freshness watch, the writer of pending results).
 */
@Readiness
@ApplicationScoped
public class CatalogReadiness implements HealthCheck {

    private final DdlRuntime runtime;
    private final FreshnessWatch freshness;

    public CatalogReadiness(DdlRuntime runtime, FreshnessWatch freshness) {
        this.runtime = runtime;
        this.freshness = freshness;
    }

    @Override
    public HealthCheckResponse call() {
        var watchProblem = freshness.problem();
        return HealthCheckResponse.named("mt-catalog")
                .status(runtime.ready() && watchProblem.isEmpty())
                .withData("state", watchProblem.orElseGet(runtime::state))
                .build();
    }
}
