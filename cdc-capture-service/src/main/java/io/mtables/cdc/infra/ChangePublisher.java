package io.mtables.cdc.infra;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.mtables.cdc.domain.CommitTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Writes Debezium's change events to their Kafka topics. A batch is acknowledged by the broker
 * before its records are marked processed, so the offsets Debezium commits never run ahead of what
 * Kafka holds: a crash re-sends, it never loses (at-least-once).
 */
final class ChangePublisher
        implements DebeziumEngine.ChangeConsumer<ChangeEvent<String, String>>, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChangePublisher.class);
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaProducer<String, String> producer;
    private final Admin admin;
    private final int partitions;
    private final List<String> heartbeatTopics;
    private final Set<String> topicsKnown = new HashSet<>();
    private final AtomicLong published = new AtomicLong();
    private final ChangeMetrics metrics;

    /**
     * @param heartbeatTopics Debezium's heartbeat records go to topics starting with these; they
     *     only move the offsets forward and are not published
     */
    ChangePublisher(
            Map<String, Object> clientConfig,
            int partitions,
            short replicationFactor,
            List<String> heartbeatTopics,
            ChangeMetrics metrics) {
        this.replicationFactor = replicationFactor;
        this.metrics = metrics;
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        this.admin = Admin.create(clientConfig);
        this.partitions = partitions;
        this.heartbeatTopics = heartbeatTopics;
    }

    @Override
    public void handleBatch(
            List<ChangeEvent<String, String>> records,
            DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer)
            throws InterruptedException {
        List<Future<RecordMetadata>> sends = new ArrayList<>(records.size());
        Map<String, Integer> counts = new HashMap<>();
        Map<String, OptionalLong> newest = new HashMap<>();
        for (ChangeEvent<String, String> record : records) {
            if (heartbeatTopics.stream().anyMatch(record.destination()::startsWith)) {
                continue;
            }
            ensureTopic(record.destination());
            // The record's time is the change's commit time in PostgreSQL, so that a reader's event
            // time (a Flink source's, and the lag it reports) is when the change happened, not when
            // it was published.
            OptionalLong committed = CommitTime.of(record.value());
            Long timestamp = committed.isPresent() ? committed.getAsLong() : null;
            var published =
                    new ProducerRecord<>(
                            record.destination(), null, timestamp, record.key(), record.value());
            // When it was published, which the record's time no longer says (a capture's own lag).
            published
                    .headers()
                    .add(
                            PUBLISHED_AT,
                            Long.toString(System.currentTimeMillis())
                                    .getBytes(StandardCharsets.UTF_8));
            sends.add(producer.send(published));
            counts.merge(record.destination(), 1, Integer::sum);
            if (committed.isPresent()) {
                newest.put(record.destination(), committed);
            }
        }
        for (Future<RecordMetadata> send : sends) {
            try {
                send.get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Nothing of this batch is marked processed: the engine stops, and a restart reads
                // it again.
                throw new IllegalStateException(
                        "Kafka did not acknowledge a change event: " + e.getMessage(), e);
            }
        }
        for (ChangeEvent<String, String> record : records) {
            committer.markProcessed(record);
        }
        committer.markBatchFinished();
        published.addAndGet(sends.size());
        counts.forEach(
                (topic, count) ->
                        metrics.published(
                                topic, count, newest.getOrDefault(topic, OptionalLong.empty())));
    }

    /** The header holding a change's publication time (epoch milliseconds, as text). */
    static final String PUBLISHED_AT = "mt-published-at";

    long published() {
        return published.get();
    }

    private final short replicationFactor;

    /**
     * Change topics are created with the configured partitions rather than by the broker's
     * defaults, if it auto-creates at all.
     */
    synchronized void ensureTopic(String topic) {
        if (topicsKnown.contains(topic)) {
            return;
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, replicationFactor)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            LOG.infof(
                    "created change topic %s (%d partition(s), replication factor %d)",
                    topic, partitions, replicationFactor);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "cannot create topic " + topic + ": " + e.getCause().getMessage(),
                        e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating " + topic, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the broker did not create " + topic + " in time", e);
        }
        topicsKnown.add(topic);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(5));
    }
}
