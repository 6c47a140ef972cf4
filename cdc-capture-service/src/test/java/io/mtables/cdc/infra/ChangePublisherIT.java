package io.mtables.cdc.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mtables.messaging.KafkaLog;
import io.mtables.testing.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The publisher against a real broker, through a crash inside the snapshot: what a reader with
 * {@code read_committed} sees of the change topic and of the offsets topic, and how far the
 * snapshot was said to be meanwhile.
 */
class ChangePublisherIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String TOPIC = "cdcpub" + RUN + ".public.items";
    private static final String OFFSETS = "mt.cdc.offsets.cdcpub" + RUN;
    private static final String TRANSACTIONAL_ID = "mt-cdc-capture.it" + RUN;
    private static final Map<String, ?> PARTITION = Map.of("server", "cdcpub" + RUN);
    private static final String STATUS = "mt.capture.status.it" + RUN;
    private static final String EMPTY = "cdcpub" + RUN + ".public.empty";

    @Test
    void aSnapshotCutShortIsNotSeenAndTheOneAfterItAndEveryChangeAreSeenOnce() throws Exception {
        Committer crashed = new Committer();
        ChangePublisher first = publisher();
        first.handleBatch(
                List.of(row(1, snapshotOffset(false)), row(2, snapshotOffset(false))), crashed);
        assertThat(crashed.processed).as("nothing is processed before its commit").isEmpty();
        assertThat(committedValues(TOPIC)).as("an open snapshot is not visible").isEmpty();

        // A new start with the same id fences the crashed one and aborts its open transaction.
        Committer committer = new Committer();
        try (ChangePublisher second = publisher()) {
            second.handleBatch(
                    List.of(row(1, snapshotOffset(false)), row(2, snapshotOffset(false))),
                    committer);
            assertThat(committedValues(TOPIC)).isEmpty();
            awaitStatus(
                    "{\"topic\":\""
                            + TOPIC
                            + "\",\"table\":\"public.items\",\"rowsCaptured\":2,\"rowsEstimated\":10,\"done\":false");
            second.handleBatch(List.of(row(3, snapshotOffset(true))), committer);
            assertThat(committedValues(TOPIC)).containsExactly("r1", "r2", "r3");
            awaitStatus(
                    "{\"topic\":\""
                            + TOPIC
                            + "\",\"table\":\"public.items\",\"rowsCaptured\":3,\"rowsEstimated\":10,\"done\":true");
            awaitStatus(
                    "{\"topic\":\""
                            + EMPTY
                            + "\",\"table\":\"public.empty\",\"rowsCaptured\":0,\"done\":true");
            assertThat(committer.processed).hasSize(3);

            second.handleBatch(List.of(row(4, Map.of("lsn", 4L))), committer);
            assertThat(committedValues(TOPIC)).containsExactly("r1", "r2", "r3", "r4");
            assertThat(committer.processed).hasSize(4);
            assertThat(second.published()).isEqualTo(4);
        }
        first.close();

        List<String> positions = committedValues(OFFSETS);
        assertThat(positions)
                .as("the positions committed with the events, the aborted one's not among them")
                .hasSize(3)
                .last()
                .isEqualTo("{\"lsn\":4}");
        assertThat(committedKeys(OFFSETS))
                .as("the key Kafka Connect's offset store reads")
                .containsOnly("[\"mt-cdc-capture\",{\"server\":\"cdcpub" + RUN + "\"}]");
    }

    private static ChangePublisher publisher() {
        return new ChangePublisher(
                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()),
                1,
                (short) 1,
                TRANSACTIONAL_ID,
                Duration.ofMinutes(1),
                new OffsetRecords(OFFSETS, "mt-cdc-capture"),
                List.of("__debezium-heartbeat"),
                event -> ((Row) event).source,
                new ChangeMetrics(new SimpleMeterRegistry(), Clock.systemUTC()),
                new SnapshotReports(
                        new KafkaLog(
                                STATUS,
                                "cdc-capture-service",
                                Map.of("bootstrap.servers", KafkaBroker.bootstrapServers())),
                        List.of(
                                new SnapshotReports.Table(TOPIC, "public.items", 10L),
                                new SnapshotReports.Table(EMPTY, "public.empty", null)),
                        Clock.systemUTC()));
    }

    /**
     * A report of the snapshot's progress on the status topic starts so (sent from a thread of its
     * own: in time). Each table has one per report: how many rows of it, of PostgreSQL's estimate.
     */
    private static void awaitStatus(String prefix) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () ->
                                assertThat(committedValues(STATUS))
                                        .anyMatch(v -> v.startsWith(prefix)));
    }

    private static Map<String, ?> snapshotOffset(boolean last) {
        return Map.of("lsn", 1L, "snapshot", "INITIAL", "last_snapshot_record", last);
    }

    private static Row row(int id, Map<String, ?> offset) {
        return new Row(
                "{\"id\":" + id + "}",
                "r" + id,
                new SourceRecord(PARTITION, offset, TOPIC, null, null, null, null));
    }

    private static List<String> committedValues(String topic) {
        return committed(topic).stream().map(r -> text(r.value())).toList();
    }

    private static List<String> committedKeys(String topic) {
        return committed(topic).stream().map(r -> text(r.key())).toList();
    }

    private static List<ConsumerRecord<byte[], byte[]>> committed(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            // A read_committed reader's end is the last stable offset: all it may ever see now.
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).records(partition).forEach(records::add);
            }
            return records;
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private record Row(String key, String value, SourceRecord source)
            implements ChangeEvent<String, String> {
        @Override
        public String destination() {
            return TOPIC;
        }

        @Override
        public Integer partition() {
            return null;
        }
    }

    private static final class Committer
            implements DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> {
        final List<ChangeEvent<String, String>> processed = new ArrayList<>();

        @Override
        public void markProcessed(ChangeEvent<String, String> record) {
            processed.add(record);
        }

        @Override
        public void markBatchFinished() {}

        @Override
        public void markProcessed(
                ChangeEvent<String, String> record, DebeziumEngine.Offsets offsets) {
            processed.add(record);
        }

        @Override
        public DebeziumEngine.Offsets buildOffsets() {
            throw new UnsupportedOperationException();
        }
    }
}
