package io.mtables.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A streaming table catching up through a backlog is only as fresh as the changes it has read: its
 * snapshots' data timestamps come from the time of the records its sources read last (Flink's
 * {@code currentEmitEventTimeLag}), not from its checkpoints' trigger times, until it has caught
 * up.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(EmbeddedFlinkTestResource.class)
class SourceLagIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final int BACKLOG = 100_000;

    private final String db =
            EmbeddedFlinkTestResource.runPrefix + UUID.randomUUID().toString().substring(0, 8);
    private final BrokerDriver driver = new BrokerDriver();

    @AfterEach
    void closeProbe() {
        driver.close();
    }

    @Test
    void aTableCatchingUpThroughAnHourOldBacklogIsAnHourBehindUntilItHasReadIt() throws Exception {
        String topic = db + "_old_taps";
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        try (var producer =
                new KafkaProducer<>(
                        Map.<String, Object>of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                KafkaBroker.bootstrapServers()),
                        new StringSerializer(),
                        new StringSerializer())) {
            for (int i = 0; i < BACKLOG; i++) {
                // Changes made an hour ago, one a millisecond.
                producer.send(
                        new ProducerRecord<>(
                                topic,
                                null,
                                hourAgo.toEpochMilli() + i,
                                String.valueOf(i),
                                "{\"id\":" + i + ",\"category\":\"" + "abc".charAt(i % 3) + "\"}"));
            }
        }
        // One record per poll: a user's source option that makes the job read the backlog slowly
        // enough (about 7,000 records a second here) to be seen behind at several looks and
        // checkpoints. With 3,000 records the whole backlog was once read before the first
        // checkpoint.
        var source =
                Tables.kafkaSource(
                        "default_catalog." + db + ".old_taps",
                        "`id` BIGINT, `category` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        source =
                new TableDefinition.SourceTable(
                        source.table(),
                        source.kind(),
                        source.version(),
                        source.statement()
                                .replace(
                                        "'scan.startup.mode'",
                                        "'properties.max.poll.records' = '1',"
                                                + " 'properties.max.partition.fetch.bytes' = '64',"
                                                + " 'scan.startup.mode'"),
                        source.columns(),
                        source.partitionKeys());
        String table = "default_catalog." + db + ".old_taps_by_category";
        TableDefinition definition =
                Tables.materialized(
                        table,
                        1,
                        List.of(
                                new Column("category", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `old_taps`.`category`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`old_taps` AS `old_taps` GROUP BY `old_taps`.`category`",
                        List.of(source),
                        TableDefinition.Status.ACTIVE);
        driver.publish(
                definition,
                Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1)));

        JsonNode behind = driver.event(Contracts.REFRESH_SUCCEEDED_V1, table, PATIENCE);
        assertThat(
                        Duration.between(
                                Instant.parse(behind.path("dataTimestamp").asText()),
                                Instant.parse(behind.path("finishedAt").asText())))
                .as("a snapshot committed while the sources read hour-old changes: %s", behind)
                .isGreaterThan(Duration.ofMinutes(55));

        JsonNode caughtUp;
        do {
            caughtUp = driver.event(Contracts.REFRESH_SUCCEEDED_V1, table, PATIENCE);
        } while (Duration.between(
                                Instant.parse(caughtUp.path("dataTimestamp").asText()),
                                Instant.parse(caughtUp.path("finishedAt").asText()))
                        .compareTo(Duration.ofMinutes(1))
                > 0);
        assertThat(
                        Duration.between(
                                Instant.parse(caughtUp.path("dataTimestamp").asText()),
                                Instant.parse(caughtUp.path("finishedAt").asText())))
                .as("once the backlog is read, the checkpoint's trigger time: %s", caughtUp)
                .isLessThan(Duration.ofSeconds(10));
    }
}
