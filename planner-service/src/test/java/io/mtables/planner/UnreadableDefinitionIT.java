package io.mtables.planner;

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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** A definition the planner cannot read comes back on mt.dead-letters, with the reason. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class UnreadableDefinitionIT {

    @Test
    void definitionOfAnUnknownVersionIsDeadLetteredWithTheReason() {
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS)) {
            probe.send(
                    Topics.TABLE_DEFINITIONS,
                    table,
                    "{\"table\": \"" + table + "\"}",
                    Map.of(EventHeaders.TYPE, "io.mtables.mt.TableDefined.v99"));

            ConsumerRecord<String, String> dead =
                    probe.await(r -> table.equals(r.key()), Duration.ofSeconds(60));

            assertThat(TopicProbe.header(dead, "dead-letter-topic"))
                    .isEqualTo(Topics.TABLE_DEFINITIONS);
            assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                    .startsWith("planner-service cannot read the record at mt.table.definitions-")
                    .contains("type 'io.mtables.mt.TableDefined.v99' is not one it reads");
            assertThat(dead.value()).contains(table);
        }
    }
}
