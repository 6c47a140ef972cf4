package io.mtables.testing.kafka;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Points a {@code @QuarkusTest} application at {@link KafkaBroker}, with Quarkus Dev Services for
 * Kafka off so that no container is started behind the test's back.
 */
public class KafkaBrokerTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of(
                "kafka.bootstrap.servers",
                KafkaBroker.bootstrapServers(),
                "quarkus.kafka.devservices.enabled",
                "false");
    }

    @Override
    public void stop() {
        // The broker outlives the application: other test classes in this JVM reuse it.
    }
}
