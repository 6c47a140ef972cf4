package io.mtables.planner.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the plans made before have been read back. */
@Readiness
@ApplicationScoped
public class PlansReadiness implements HealthCheck {

    private final PlannerRuntime runtime;

    public PlansReadiness(PlannerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-plans")
                .status(runtime.ready())
                .withData("state", runtime.state())
                .build();
    }
}
