package io.mtables.schemas;

/**
 * A topic and how long Kafka keeps its records.
 *
 * @param name the topic name
 * @param retention COMPACT keeps the latest record per key forever (state that a new instance
 *     rebuilds from); DELETE keeps records for the broker's retention time (a stream of events)
 */
public record TopicSpec(String name, Retention retention) {

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
