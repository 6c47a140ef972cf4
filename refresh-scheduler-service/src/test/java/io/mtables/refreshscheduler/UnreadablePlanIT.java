package io.mtables.refreshscheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A plan without an envelope is not guessed at: it comes back on mt.dead-letters. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class UnreadablePlanIT {

    @Test
    void planWithoutTypeHeaderIsDeadLetteredWithTheReason() {
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS)) {
            probe.send(Topics.REFRESH_PLANS, table, "{\"mode\": \"FULL\"}", Map.of());

            var dead = probe.await(r -> table.equals(r.key()), Duration.ofSeconds(60));

            assertThat(TopicProbe.header(dead, "dead-letter-topic"))
                    .isEqualTo(Topics.REFRESH_PLANS);
            assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                    .startsWith(
                            "refresh-scheduler-service cannot read the record at mt.refresh.plans-")
                    .contains("no ce_type header is not one it reads");
        }
    }
}
