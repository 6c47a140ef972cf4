package io.mtables.cdc.infra;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready while Debezium's connector task runs: the tables are being read or streamed. */
@Readiness
@ApplicationScoped
public class CaptureReadiness implements HealthCheck {

    private final CaptureRuntime runtime;

    public CaptureReadiness(CaptureRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-cdc")
                .status(runtime.running())
                .withData("state", runtime.state())
                .build();
    }
}
