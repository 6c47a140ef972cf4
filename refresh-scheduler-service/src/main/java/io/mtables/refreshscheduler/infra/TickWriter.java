package io.mtables.refreshscheduler.infra;

import io.mtables.messaging.Envelope;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes ticks with Kafka transactions: a scheduled tick and the table's last-tick record are
 * committed together or not at all, so a scheduler that takes a table over (reading last ticks with
 * read_committed) neither repeats nor skips a tick. Consumers of ticks read committed only.
 */
class TickWriter implements AutoCloseable {

    private final String source;
    private final KafkaProducer<String, String> producer;

    TickWriter(Map<String, Object> clientConfig, String source, Duration transactionTimeout) {
        this.source = source;
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, source + "-" + UUID.randomUUID());
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        producer.initTransactions();
    }

    /** Scheduled and catch-up ticks, each with its table's last-tick record, in one transaction. */
    void writeScheduled(List<RefreshTick> ticks) {
        inTransaction(
                () -> {
                    for (RefreshTick tick : ticks) {
                        producer.send(
                                Envelope.record(
                                        Topics.REFRESH_TICKS,
                                        source,
                                        Contracts.REFRESH_TICK_V1,
                                        tick.table(),
                                        tick));
                        producer.send(
                                Envelope.record(
                                        Topics.SCHEDULER_LAST_TICKS,
                                        source,
                                        Contracts.REFRESH_TICK_V1,
                                        tick.table(),
                                        tick));
                    }
                });
    }

    /** A manual tick: not a period boundary, so the last scheduled tick stays as it is. */
    void writeManual(RefreshTick tick) {
        inTransaction(
                () ->
                        producer.send(
                                Envelope.record(
                                        Topics.REFRESH_TICKS,
                                        source,
                                        Contracts.REFRESH_TICK_V1,
                                        tick.table(),
                                        tick)));
    }

    private synchronized void inTransaction(Runnable sends) {
        producer.beginTransaction();
        try {
            sends.run();
            producer.commitTransaction();
        } catch (KafkaException e) {
            producer.abortTransaction();
            throw e;
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
