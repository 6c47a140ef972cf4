package io.mtables.refreshscheduler.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the tick writer is up; its data shows the tables scheduled here and the tick jitter.
 */
@Readiness
@ApplicationScoped
public class ScheduleReadiness implements HealthCheck {

    private final SchedulerRuntime runtime;

    public ScheduleReadiness(SchedulerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-schedule")
                .status(runtime.ready())
                .withData("state", runtime.state())
                .build();
    }
}
