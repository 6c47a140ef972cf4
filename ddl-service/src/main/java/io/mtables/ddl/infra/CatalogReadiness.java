package io.mtables.ddl.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the catalog has been read back from Kafka. */
@Readiness
@ApplicationScoped
public class CatalogReadiness implements HealthCheck {

    private final DdlRuntime runtime;

    public CatalogReadiness(DdlRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-catalog")
                .status(runtime.ready())
                .withData("state", runtime.state())
                .build();
    }
}
