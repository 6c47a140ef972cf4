package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.TopicProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A corrupt record in a log read back at start is dead-lettered with the reason, and the records
 * after it are still read.
 */
class KafkaLogReplayIT {

    @Test
    void aCorruptRecordIsDeadLetteredAndTheReplayGoesOn() {
        String topic = "replay-test-" + UUID.randomUUID();
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        RefreshPlan plan =
                RefreshPlanBuilder.builder()
                        .table(table)
                        .definitionVersion(2)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.CONTINUOUS)
                        .freshness(new RefreshPlan.Freshness(5, "SECOND"))
                        .freshnessDeclared(true)
                        .checkpointInterval(Duration.ofMillis(2500))
                        .cron(null)
                        .partitionFormatters(Map.of())
                        .changelogMode("[I,UA,UB,D]")
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .reasons(List.of("hand-made"))
                        .warnings(List.of())
                        .plannedAt(Instant.parse("2026-12-01T10:00:00Z"))
                        .build();
        try (TopicProbe probe = new TopicProbe().tail(Topics.DEAD_LETTERS);
                KafkaLog log =
                        new KafkaLog(
                                topic,
                                "planner-service",
                                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            probe.send(
                    topic,
                    table,
                    "{\"table\": \"" + table + "\", \"definitionVersion\": \"not a number\"}",
                    Map.of(EventHeaders.TYPE, Contracts.REFRESH_PLANNED_V1.type()));
            log.append(Contracts.REFRESH_PLANNED_V1, table, plan);

            List<RefreshPlan> read = new ArrayList<>();
            for (var record : log.readAllWhenAvailable()) {
                log.decodeOrDeadLetter(record, Contracts.REFRESH_PLANNED_V1).ifPresent(read::add);
            }

            assertThat(read).containsExactly(plan);
            ConsumerRecord<String, String> dead =
                    probe.await(r -> table.equals(r.key()), Duration.ofSeconds(30));
            assertThat(TopicProbe.header(dead, "dead-letter-topic")).isEqualTo(topic);
            assertThat(TopicProbe.header(dead, "dead-letter-offset")).isEqualTo("0");
            assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                    .startsWith(
                            "planner-service cannot read the record at "
                                    + topic
                                    + "-0@0 while reading");
            assertThat(TopicProbe.header(dead, EventHeaders.TYPE))
                    .isEqualTo(Contracts.REFRESH_PLANNED_V1.type());
            assertThat(dead.value()).contains("not a number");
        }
    }
}
