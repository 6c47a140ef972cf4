package io.mtables.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Records the job manager cannot act on come back on mt.dead-letters, one per bad record. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class UnreadableTickIT {

    @Test
    void aTickOfAnUnknownTypeIsDeadLettered() {
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS)) {
            probe.send(
                    Topics.REFRESH_TICKS,
                    table,
                    "{}",
                    Map.of(EventHeaders.TYPE, "io.mtables.mt.Tick.v0"));

            var tick = probe.await(r -> table.equals(r.key()), Duration.ofSeconds(60));

            assertThat(TopicProbe.header(tick, "dead-letter-reason"))
                    .startsWith("job-manager-service cannot read the record at mt.refresh.ticks-")
                    .contains("type 'io.mtables.mt.Tick.v0'");
        }
    }
}
