package io.mtables.jobmanager.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once Flink answers and the previous run's state is read back and acted on. */
@Readiness
@ApplicationScoped
public class PipelinesReadiness implements HealthCheck {

    private final JobManagerRuntime runtime;

    public PipelinesReadiness(JobManagerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-pipelines")
                .status(runtime.ready())
                .withData("state", runtime.state())
                .build();
    }
}
