package io.mtables.messaging;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * A topic used as a durable log that this service owns: appends are synchronous (acknowledged by
 * all in-sync replicas, idempotent producer) and the whole log can be read back from the start,
 * which is how ddl-service rebuilds its state after a restart.
 */
public class KafkaLog implements AutoCloseable {

    private static final Duration DEFAULT_APPEND_TIMEOUT = Duration.ofSeconds(30);
    private static final Logger LOG = Logger.getLogger(KafkaLog.class);

    private final String topic;
    private final String source;
    private final Map<String, Object> clientConfig;
    private final KafkaProducer<String, String> producer;
    private final Duration appendTimeout;
    private final ContractCodec codec = new ContractCodec();

    public KafkaLog(String topic, String source, Map<String, Object> clientConfig) {
        this.topic = topic;
        this.source = source;
        this.clientConfig = clientConfig;
        Map<String, Object> producerConfig = new HashMap<>(clientConfig);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // An append waits for its record's acknowledgement, so nothing ever waits to be batched
        // with it: the client's default 5 ms linger would only delay every append by that much.
        producerConfig.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        // The producer gives up on a record before we stop waiting for it, so an append that fails
        // has failed for good; the timeout is the client's delivery.timeout.ms (tests shorten it).
        producerConfig.putIfAbsent(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DEFAULT_APPEND_TIMEOUT.toMillis());
        producerConfig.putIfAbsent(
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                producerConfig.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        int delivery =
                Integer.parseInt(
                        String.valueOf(
                                producerConfig.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)));
        producerConfig.putIfAbsent(
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, delivery / 3));
        this.appendTimeout = Duration.ofMillis(delivery).plusSeconds(5);
        this.producer =
                new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
    }

    /**
     * Fetches the topic's partitions for the producer, which a first append otherwise waits for (a
     * warm-up: the job manager's first event after its start came 1 s after the job started, the
     * next ones within 0.1 s; bin/bench control-plane).
     *
     * @throws BrokerUnavailableException when the broker does not answer in time
     */
    public void warmUp() {
        try {
            producer.partitionsFor(topic);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw unavailable(topic, e);
        }
    }

    /**
     * Appends one event and returns once the broker has it.
     *
     * @throws BrokerUnavailableException when the broker does not acknowledge it in time
     */
    public <T> void append(Contract<T> contract, String key, T payload) {
        append(contract, key, payload, Map.of());
    }

    /**
     * Appends one event with extension headers of its own (names from {@code EventHeaders}) and
     * returns once the broker has it.
     *
     * @throws BrokerUnavailableException when the broker does not acknowledge it in time
     */
    public <T> void append(
            Contract<T> contract, String key, T payload, Map<String, String> extensions) {
        ProducerRecord<String, String> record =
                Envelope.record(topic, source, contract, key, payload);
        extensions.forEach(
                (name, value) ->
                        record.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
        send(record, key);
    }

    private void send(ProducerRecord<String, String> record, String key) {
        String destination = record.topic();
        try {
            producer.send(record).get(appendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to " + destination, e);
        } catch (TimeoutException e) {
            throw unavailable(destination, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException) { // its own timeout included
                throw unavailable(destination, e.getCause());
            }
            throw new IllegalStateException(
                    "Failed to send record with key '" + key + "' to " + destination, e);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw unavailable(
                    destination, e); // send() itself waited too long for the topic's metadata
        }
    }

    private BrokerUnavailableException unavailable(String topic, Throwable cause) {
        return new BrokerUnavailableException(
                "Kafka did not acknowledge a record on "
                        + topic
                        + " within "
                        + appendTimeout.toSeconds()
                        + " s ("
                        + cause.getMessage()
                        + ")",
                cause);
    }

    /** {@link #readAll()}, retried every second while the broker or the topic is not there yet. */
    public List<ConsumerRecord<String, String>> readAllWhenAvailable() {
        while (true) {
            try {
                return readAll();
            } catch (RuntimeException e) {
                LOG.infof("cannot read %s yet (%s); retrying", topic, e.getMessage());
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(
                            "interrupted while reading " + topic, interrupted);
                }
            }
        }
    }

    /** Every record from the start of the log to its end as of now. */
    public List<ConsumerRecord<String, String>> readAll() {
        Map<String, Object> consumerConfig = new HashMap<>(clientConfig);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // Records of aborted or still open transactions (the scheduler writes with transactions)
        // are not state.
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (var consumer =
                new KafkaConsumer<>(
                        consumerConfig, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(info -> new TopicPartition(topic, info.partition()))
                            .toList();
            if (partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " has no partitions yet");
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
            records.sort(Comparator.comparingLong(ConsumerRecord::timestamp));
            return records;
        }
    }

    /**
     * A replayed record decoded as {@code contract}, or empty when it cannot be: then it goes to
     * {@code mt.dead-letters} with the reason, in the headers SmallRye's dead-letter queue writes,
     * and the replay goes on, so one corrupt record does not stop a service from starting.
     *
     * @throws BrokerUnavailableException when the dead letter cannot be written either
     */
    public <T> Optional<T> decodeOrDeadLetter(
            ConsumerRecord<String, String> record, Contract<T> contract) {
        return decodeOrDeadLetter(record, contract, payload -> {});
    }

    /**
     * As {@link #decodeOrDeadLetter(ConsumerRecord, Contract)}, and a payload that {@code check}
     * refuses (by throwing) is dead-lettered the same way, with the check's message.
     */
    public <T> Optional<T> decodeOrDeadLetter(
            ConsumerRecord<String, String> record,
            Contract<T> contract,
            java.util.function.Consumer<T> check) {
        try {
            T payload = codec.decode(contract, record.value());
            check.accept(payload);
            return Optional.of(payload);
        } catch (RuntimeException e) {
            deadLetter(
                    record,
                    source
                            + " cannot read the record at "
                            + record.topic()
                            + "-"
                            + record.partition()
                            + "@"
                            + record.offset()
                            + " while reading "
                            + record.topic()
                            + " back: "
                            + e.getMessage(),
                    e.getClass().getName(),
                    Set.of());
            return Optional.empty();
        }
    }

    /**
     * Sends {@code record} to {@code mt.dead-letters} with SmallRye's reason headers, as a
     * channel's dead-letter queue does, but without the headers named in {@code withheld} (a
     * credential a dead letter must not spread), and returns once the broker has it.
     */
    public void deadLetter(
            ConsumerRecord<String, String> record,
            String reason,
            String exceptionClass,
            Set<String> withheld) {
        ProducerRecord<String, String> dead =
                new ProducerRecord<>(Topics.DEAD_LETTERS, record.key(), record.value());
        record.headers()
                .forEach(
                        header -> {
                            if (!withheld.contains(header.key())) {
                                dead.headers().add(header);
                            }
                        });
        dead.headers().add("dead-letter-reason", bytes(reason));
        dead.headers().add("dead-letter-topic", bytes(record.topic()));
        dead.headers().add("dead-letter-partition", bytes(String.valueOf(record.partition())));
        dead.headers().add("dead-letter-offset", bytes(String.valueOf(record.offset())));
        dead.headers().add("dead-letter-exception-class-name", bytes(exceptionClass));
        send(dead, record.key());
        LOG.warnf("%s; sent to %s", reason, Topics.DEAD_LETTERS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The settings of Quarkus's default Kafka configuration that a plain client needs (and how long
     * an append may wait).
     */
    public static Map<String, Object> clientConfig(Map<String, Object> kafka) {
        Map<String, Object> config = new HashMap<>(securitySettings(kafka));
        kafka.forEach(
                (key, value) -> {
                    if (key.equals("bootstrap.servers") || key.equals("delivery.timeout.ms")) {
                        config.put(key, value);
                    }
                });
        return config;
    }

    /**
     * How a client authenticates to the broker ({@code security.*}, {@code sasl.*}, {@code ssl.*}
     * of Quarkus's default Kafka configuration; empty on a plaintext broker): every client a
     * service makes, its Flink jobs' included, connects with them.
     */
    public static Map<String, String> securitySettings(Map<String, Object> kafka) {
        Map<String, String> settings = new HashMap<>();
        kafka.forEach(
                (key, value) -> {
                    if (key.startsWith("security.")
                            || key.startsWith("sasl.")
                            || key.startsWith("ssl.")) {
                        settings.put(key, String.valueOf(value));
                    }
                });
        return settings;
    }

    /** The text of a header, or null. */
    public static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
