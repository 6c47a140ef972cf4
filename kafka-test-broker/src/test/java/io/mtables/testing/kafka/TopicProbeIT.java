package io.mtables.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicProbeIT {

    @Test
    void seesARecordSentAfterTailOnABrandNewTopic() {
        String topic = "it.probe." + UUID.randomUUID();
        try (TopicProbe probe = new TopicProbe().tail(topic)) {
            probe.send(topic, "k", "v", Map.of("h", "x"));

            var record = probe.await(r -> "k".equals(r.key()), Duration.ofSeconds(30));

            assertThat(record.value()).isEqualTo("v");
            assertThat(TopicProbe.header(record, "h")).isEqualTo("x");
        }
    }

    @Test
    void doesNotSeeWhatWasSentBeforeTail() {
        String topic = "it.probe." + UUID.randomUUID();
        try (TopicProbe probe = new TopicProbe()) {
            probe.send(topic, "old", "v", Map.of());
            probe.tail(topic);

            assertThatThrownBy(() -> probe.await(r -> "old".equals(r.key()), Duration.ofSeconds(2)))
                    .isInstanceOf(AssertionError.class);
        }
    }
}
