package io.mtables.messaging;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Starts topic creation with the service, and reports the service ready only once it is done. */
@Readiness
@ApplicationScoped
public class TopicsReadiness implements HealthCheck {

    private final AtomicReference<String> state = new AtomicReference<>("creating");

    void onStart(@Observes StartupEvent start, TopicCreator creator, MessagingConfig config) {
        if (!config.createTopics()) {
            state.set("ready");
            return;
        }
        creator.ensureTopics()
                .whenComplete(
                        (ok, error) -> state.set(error == null ? "ready" : "failed: " + error));
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("mt-topics")
                .status(state.get().equals("ready"))
                .withData("state", state.get())
                .build();
    }
}
