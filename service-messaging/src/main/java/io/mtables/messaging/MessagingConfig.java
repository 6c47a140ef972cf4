package io.mtables.messaging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How a service creates the system's topics when they are missing. */
@ConfigMapping(prefix = "mt.kafka")
public interface MessagingConfig {

    /** Whether the service creates missing topics at start (off where an operator owns topics). */
    @WithDefault("true")
    boolean createTopics();

    /** Partitions of a created topic; a table's records stay ordered whatever the count. */
    @WithDefault("3")
    int topicPartitions();

    /** Replication factor of a created topic; 1 suits a single broker, 3 a production cluster. */
    @WithDefault("1")
    short topicReplicationFactor();
}
