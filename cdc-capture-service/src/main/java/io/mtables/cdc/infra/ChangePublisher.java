package io.mtables.cdc.infra;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.mtables.cdc.domain.CommitTime;
import io.mtables.cdc.domain.SnapshotProgress;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.jboss.logging.Logger;

/**
 * Writes Debezium's change events to their Kafka topics exactly once. Each batch, with the position
 * it reaches (a record of Debezium's offsets topic, {@link OffsetRecords}), is one Kafka
 * transaction: after a crash the next start aborts what was not committed and resumes from the last
 * committed position, so a reader with {@code isolation.level=read_committed} sees every change
 * once. The initial snapshot is one transaction from its first row to its last, because
 * PostgreSQL's connector restarts an interrupted snapshot from the beginning. The records are
 * marked processed (Debezium then confirms the position to PostgreSQL) only once committed.
 */
final class ChangePublisher
        implements DebeziumEngine.ChangeConsumer<ChangeEvent<String, String>>, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChangePublisher.class);

    private final KafkaProducer<byte[], byte[]> producer;
    private final Admin admin;
    private final int partitions;
    private final short replicationFactor;
    private final List<String> heartbeatTopics;
    private final OffsetRecords offsets;
    private final Function<ChangeEvent<String, String>, SourceRecord> sourceOf;
    private final Set<String> topicsKnown = new HashSet<>();
    private final AtomicLong published = new AtomicLong();
    private final ChangeMetrics metrics;
    private final SnapshotReports snapshots;

    /** The open transaction's records (more than one batch only inside the snapshot). */
    private final List<ChangeEvent<String, String>> uncommitted = new ArrayList<>();

    private final Map<String, Integer> uncommittedCounts = new HashMap<>();
    private final Map<String, OptionalLong> uncommittedNewest = new HashMap<>();
    private boolean inTransaction;

    /**
     * @param transactionalId this capture's Kafka transactional id: the same across its restarts,
     *     so a new start fences the old one and aborts its open transaction
     * @param transactionTimeout how long a transaction (the whole snapshot) may stay open
     * @param heartbeatTopics Debezium's heartbeat records go to topics starting with these; they
     *     only move the offsets forward and are not published
     * @param sourceOf the engine's source record behind a change event (its partition and offset)
     * @param snapshots told how far a snapshot is, and when it is committed
     */
    ChangePublisher(
            Map<String, Object> clientConfig,
            int partitions,
            short replicationFactor,
            String transactionalId,
            Duration transactionTimeout,
            OffsetRecords offsets,
            List<String> heartbeatTopics,
            Function<ChangeEvent<String, String>, SourceRecord> sourceOf,
            ChangeMetrics metrics,
            SnapshotReports snapshots) {
        this.replicationFactor = replicationFactor;
        this.metrics = metrics;
        this.snapshots = snapshots;
        this.offsets = offsets;
        this.sourceOf = sourceOf;
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
        this.producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        // Fences an earlier instance and aborts the transaction it left open.
        producer.initTransactions();
        this.admin = Admin.create(clientConfig);
        this.partitions = partitions;
        this.heartbeatTopics = heartbeatTopics;
    }

    @Override
    public void handleBatch(
            List<ChangeEvent<String, String>> records,
            DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer)
            throws InterruptedException {
        if (records.isEmpty()) {
            committer.markBatchFinished();
            return;
        }
        if (!inTransaction) {
            producer.beginTransaction();
            inTransaction = true;
        }
        for (ChangeEvent<String, String> record : records) {
            uncommitted.add(record);
            if (heartbeatTopics.stream().anyMatch(record.destination()::startsWith)) {
                continue;
            }
            ensureTopic(record.destination());
            // The record's time is the change's commit time in PostgreSQL, so that a reader's event
            // time (a Flink source's, and the lag it reports) is when the change happened, not when
            // it was published.
            OptionalLong committed = CommitTime.of(record.value());
            Long timestamp = committed.isPresent() ? committed.getAsLong() : null;
            var change =
                    new ProducerRecord<>(
                            record.destination(),
                            null,
                            timestamp,
                            bytes(record.key()),
                            bytes(record.value()));
            // When it was published, which the record's time no longer says (a capture's own lag).
            change.headers().add(PUBLISHED_AT, bytes(Long.toString(System.currentTimeMillis())));
            producer.send(change);
            uncommittedCounts.merge(record.destination(), 1, Integer::sum);
            if (committed.isPresent()) {
                uncommittedNewest.put(record.destination(), committed);
            }
        }
        SourceRecord last = sourceOf.apply(records.get(records.size() - 1));
        producer.send(offsets.of(last.sourcePartition(), last.sourceOffset()));
        if (SnapshotProgress.inSnapshot(sourceOf.apply(records.get(0)).sourceOffset())) {
            snapshots.read(uncommittedCounts); // a snapshot is read: what it has so far
        }
        if (!SnapshotProgress.unfinished(last.sourceOffset())) {
            Map<String, Integer> read = Map.copyOf(uncommittedCounts);
            commit(committer);
            snapshots.committed(read);
        }
        committer.markBatchFinished();
    }

    /**
     * Commits the open transaction, then marks its records processed. A failed commit throws: the
     * engine stops (readiness goes down) and a restart reads it all again.
     */
    private void commit(DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer)
            throws InterruptedException {
        try {
            producer.commitTransaction();
        } catch (KafkaException e) {
            throw new IllegalStateException(
                    "Kafka did not commit "
                            + uncommitted.size()
                            + " change event(s) and their position: "
                            + e.getMessage(),
                    e);
        }
        inTransaction = false;
        for (ChangeEvent<String, String> record : uncommitted) {
            committer.markProcessed(record);
        }
        published.addAndGet(uncommittedCounts.values().stream().mapToInt(Integer::intValue).sum());
        uncommittedCounts.forEach(
                (topic, count) ->
                        metrics.published(
                                topic,
                                count,
                                uncommittedNewest.getOrDefault(topic, OptionalLong.empty())));
        uncommitted.clear();
        uncommittedCounts.clear();
        uncommittedNewest.clear();
    }

    private static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /** The header holding a change's publication time (epoch milliseconds, as text). */
    static final String PUBLISHED_AT = "mt-published-at";

    long published() {
        return published.get();
    }

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
        snapshots.close();
    }
}
