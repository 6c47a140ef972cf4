package io.mtables.schemas;

/**
 * A topic and how long Kafka keeps its records.
 *
 * @param name the topic name
 * @param retention COMPACT keeps the latest record per key forever (state that a new instance
 *     rebuilds from); DELETE keeps records for the broker's retention time (a stream of events)
 * @param partitions how many partitions the topic has: 0 for the number the services are configured
 *     with ({@code mt.kafka.topic-partitions}); 1 for a topic whose records are read back in one
 *     order across keys
 */
public record TopicSpec(String name, Retention retention, int partitions) {

    /** A topic with the configured number of partitions. */
    public TopicSpec(String name, Retention retention) {
        this(name, retention, 0);
    }

    /** The partitions to create it with, given the configured number. */
    public int partitionsOr(int configured) {
        return partitions > 0 ? partitions : configured;
    }

    /** Kafka's {@code cleanup.policy}. */
    public enum Retention {
        COMPACT("compact"),
        DELETE("delete");

        private final String cleanupPolicy;

        Retention(String cleanupPolicy) {
            this.cleanupPolicy = cleanupPolicy;
        }

        /** The value of Kafka's {@code cleanup.policy} topic setting. */
        public String cleanupPolicy() {
            return cleanupPolicy;
        }
    }
}
