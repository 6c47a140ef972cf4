package io.mtables.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A test's hands on the broker: send a record, then wait for the record that comes back.
 *
 * <p>The broker is shared by every test and keeps earlier runs' records, so a probe reads a topic
 * only from the end it had when {@link #tail} was called.
 */
public final class TopicProbe implements AutoCloseable {

    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final List<ConsumerRecord<String, String>> unclaimed = new ArrayList<>();

    public TopicProbe() {
        this(KafkaBroker.bootstrapServers());
    }

    /** A probe of another broker than the tests' own (the distributed test's). */
    public TopicProbe(String servers) {
        this(servers, Map.of());
    }

    /**
     * A probe of another broker that connects with {@code security} (a secured broker's {@code
     * security.protocol}, {@code sasl.*} settings).
     */
    public TopicProbe(String servers, Map<String, String> security) {
        Properties producerProps = new Properties();
        producerProps.putAll(security);
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producer =
                new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer());

        Properties consumerProps = new Properties();
        consumerProps.putAll(security);
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "test-probe-" + UUID.randomUUID());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Positions are set explicitly in tail(); should one ever be lost, re-read rather than
        // skip.
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // What a consumer of the system sees: ticks are written in transactions, aborted ones are
        // not there.
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer =
                new KafkaConsumer<>(
                        consumerProps, new StringDeserializer(), new StringDeserializer());
    }

    /** Start reading {@code topic} from its current end; call before sending what you await. */
    public TopicProbe tail(String topic) {
        List<TopicPartition> partitions = partitionsOf(topic);
        List<TopicPartition> assigned = new ArrayList<>(consumer.assignment());
        assigned.addAll(partitions);
        consumer.assign(assigned);
        consumer.endOffsets(partitions).forEach(consumer::seek);
        return this;
    }

    /** Read {@code topic} from its beginning: for records written before the test could tail it. */
    public TopicProbe fromStart(String topic) {
        List<TopicPartition> partitions = partitionsOf(topic);
        List<TopicPartition> assigned = new ArrayList<>(consumer.assignment());
        assigned.addAll(partitions);
        consumer.assign(assigned);
        consumer.seekToBeginning(partitions);
        return this;
    }

    /** Send one record and wait until the broker has it. */
    public void send(String topic, String key, String value, Map<String, String> headers) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
        headers.forEach(
                (name, text) -> record.headers().add(name, text.getBytes(StandardCharsets.UTF_8)));
        try {
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Failed to send record with key '" + key + "' to " + topic, e);
        }
    }

    /**
     * The first record on a tailed topic that matches and was not returned before, or an error
     * after {@code timeout}. Records that do not match are kept for later calls, so awaiting
     * several records one after the other works whatever order they arrive in.
     */
    public ConsumerRecord<String, String> await(
            Predicate<ConsumerRecord<String, String>> match, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        do {
            for (var iterator = unclaimed.iterator(); iterator.hasNext(); ) {
                ConsumerRecord<String, String> record = iterator.next();
                if (match.test(record)) {
                    iterator.remove();
                    return record;
                }
            }
            consumer.poll(Duration.ofMillis(200)).forEach(unclaimed::add);
        } while (Instant.now().isBefore(deadline));
        throw new AssertionError(
                "No matching record within "
                        + timeout
                        + " on "
                        + consumer.assignment()
                        + "; unclaimed: "
                        + unclaimed.stream().map(r -> r.topic() + "[" + r.key() + "]").toList());
    }

    /** The text of a header of {@code record}, or null. */
    public static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The partitions of {@code topic}, creating it first when it does not exist yet. */
    private List<TopicPartition> partitionsOf(String topic) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            // On a missing topic this asks the broker to create it, and answers empty until it
            // exists.
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
            if (!infos.isEmpty() && infos.stream().allMatch(info -> info.leader() != null)) {
                return infos.stream()
                        .map(info -> new TopicPartition(topic, info.partition()))
                        .toList();
            }
            sleep(Duration.ofMillis(100));
        }
        throw new IllegalStateException(
                "topic " + topic + " has no partitions with a leader after 30s");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        consumer.close(Duration.ofSeconds(5));
    }
}
