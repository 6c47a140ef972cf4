package io.mtables.testing.kafka;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The one Kafka broker of a test JVM: the broker named by {@code KAFKA_BOOTSTRAP_SERVERS} (the
 * build starts one with {@code bin/kafka start}), else a container when a Docker engine answers,
 * else an error that says what to do. A test never skips silently for want of a broker.
 */
public final class KafkaBroker {

    /** The variable that names a running broker. */
    public static final String BOOTSTRAP_SERVERS_ENV = "KAFKA_BOOTSTRAP_SERVERS";

    private static final String CONTAINER_IMAGE = "apache/kafka:4.1.1";

    private static String bootstrapServers;
    private static KafkaContainer container;

    private KafkaBroker() {}

    /** The bootstrap servers of the broker, starting a container on first use if needed. */
    public static synchronized String bootstrapServers() {
        if (bootstrapServers == null) {
            bootstrapServers = locate();
        }
        return bootstrapServers;
    }

    private static String locate() {
        String fromEnvironment = System.getenv(BOOTSTRAP_SERVERS_ENV);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException(
                    "No Kafka broker for the tests: "
                            + BOOTSTRAP_SERVERS_ENV
                            + " is not set and no Docker engine answers. Run `bin/kafka start` and"
                            + " set "
                            + BOOTSTRAP_SERVERS_ENV
                            + "=127.0.0.1:9092, or use `bin/test`, which does both.");
        }
        container = new KafkaContainer(CONTAINER_IMAGE);
        container.start();
        // The container lives as long as the test JVM; Testcontainers' reaper removes it
        // afterwards.
        return container.getBootstrapServers();
    }
}
