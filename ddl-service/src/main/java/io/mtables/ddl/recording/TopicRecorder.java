package io.mtables.ddl.recording;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.active.ActiveInstance;
import io.mtables.planning.Warehouse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.RowType;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Records a topic into a Paimon table of the warehouse, on a thread of its own while this instance
 * of ddl-service is the active one: reads the topic with a consumer group of its own, writes the
 * rows of up to {@link #COMMIT_EVERY} in one Paimon commit, and commits the Kafka offsets only
 * after Paimon committed the rows (a record read again is the same row, by the table's key). A
 * record that cannot be made into rows (unreadable, or lacking a value the table requires) is sent
 * to {@code mt.dead-letters} with the reason (at least once: a step that fails after it reads the
 * record again) and counted ({@code mt_recording_dead_letters_total{table}}), and the recording
 * goes on past it; any other failure (the broker, the store) is counted ({@code <metric>}) and the
 * whole step is tried again 5 s later from the last committed offsets.
 */
public final class TopicRecorder {

    private static final Logger LOG = Logger.getLogger(TopicRecorder.class);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(5);

    /**
     * How long rows wait for others to join their Paimon commit: each commit writes a snapshot, its
     * manifests and files and compacts, and with a commit per poll the refresh history's recording
     * took more of ddl-service's CPU than anything else in it while tables ran (bin/bench
     * control-plane, 5 tables checkpointing twice a second).
     */
    public static final Duration COMMIT_EVERY = Duration.ofSeconds(1);

    private final String what;
    private final String topic;
    private final RecordedTable table;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Counter failures;
    private final Counter deadLettered;
    private KafkaLog deadLetters;
    private volatile boolean stopped;
    private Thread thread;
    private ActiveInstance role;

    /**
     * @param what what it records, for its log and thread ("refresh history")
     * @param metric the counter of failed steps ({@code mt.history.write.failures})
     */
    public TopicRecorder(
            String what,
            String topic,
            RecordedTable table,
            String metric,
            Clock clock,
            MeterRegistry registry) {
        this.what = what;
        this.topic = topic;
        this.table = table;
        this.clock = clock;
        this.registry = registry;
        this.failures =
                Counter.builder(metric)
                        .description("Writes of the " + what + " that failed and were tried again")
                        .register(registry);
        this.deadLettered =
                Counter.builder("mt.recording.dead.letters")
                        .description(
                                "Records a system table could not hold, sent to mt.dead-letters")
                        .tag("table", what)
                        .register(registry);
    }

    /**
     * Starts recording into the configured warehouse once this instance is the active one (the one
     * that holds {@code commandsGroup}'s partition): one writer of the table.
     *
     * @param broker Quarkus's Kafka settings ({@code default-kafka-broker})
     * @param group the consumer group, whose committed offsets say what is recorded
     */
    public void start(Map<String, Object> broker, String group, String commandsGroup) {
        Map<String, Object> kafka = KafkaLog.clientConfig(broker);
        Warehouse warehouse = WarehouseReader.configured(ConfigProvider.getConfig());
        ActiveInstance role = ActiveInstance.of(commandsGroup);
        Map<String, Object> consumer = new HashMap<>(kafka);
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Large polls: a burst of records is read at once.
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        this.role = role;
        this.deadLetters = new KafkaLog(topic, "ddl-service's " + what, kafka);
        thread =
                new Thread(
                        () -> {
                            try {
                                role.awaitActive();
                            } catch (InterruptedException e) {
                                return;
                            }
                            recordUntilStopped(consumer, warehouse);
                        },
                        what.replace(' ', '-'));
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.setDaemon(true);
        thread.start();
    }

    public void stop() throws InterruptedException {
        stopped = true;
        if (thread != null) {
            if (!role.isActive()) {
                thread.interrupt(); // a standby's wait ends; a recording one finishes its step
            }
            thread.join(Duration.ofSeconds(10).toMillis());
        }
        // A step still running past the wait may yet send one (the JVM is ending then anyway).
        if (deadLetters != null && (thread == null || !thread.isAlive())) {
            deadLetters.close();
        }
    }

    private void recordUntilStopped(Map<String, Object> consumerConfig, Warehouse warehouse) {
        while (!stopped) {
            try {
                record(consumerConfig, warehouse);
            } catch (Exception e) {
                failures.increment();
                LOG.warnf(
                        e,
                        "writing the %s failed; trying again in %d s from the last committed"
                                + " record",
                        what,
                        RETRY_PAUSE.toSeconds());
                sleep(RETRY_PAUSE);
            }
        }
    }

    private void record(Map<String, Object> consumerConfig, Warehouse warehouse) throws Exception {
        try (Catalog catalog = SystemTables.catalog(warehouse);
                KafkaConsumer<String, String> consumer =
                        new KafkaConsumer<>(
                                consumerConfig,
                                new StringDeserializer(),
                                new StringDeserializer());
                // Its lag on /q/metrics beside the other consumers'
                // (kafka_consumer_fetch_manager_records_lag_max).
                KafkaClientMetrics consumerMetrics = new KafkaClientMetrics(consumer)) {
            consumerMetrics.bindTo(registry);
            FileStoreTable paimon = table.open(catalog);
            StreamWriteBuilder builder =
                    paimon.newStreamWriteBuilder()
                            .withCommitUser(
                                    "ddl-service-" + paimon.name() + "-" + UUID.randomUUID());
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                consumer.subscribe(List.of(topic));
                long commitId = 0;
                List<GenericRow> pending = new ArrayList<>();
                Instant commitDue = null;
                while (!stopped) {
                    Duration wait =
                            commitDue == null ? Duration.ofSeconds(1) : durationUntil(commitDue);
                    for (ConsumerRecord<String, String> record : consumer.poll(wait)) {
                        pending.addAll(rowsOrDeadLetter(record, paimon.rowType()));
                    }
                    pending.addAll(table.due(clock.instant()));
                    if (pending.isEmpty()) {
                        consumer.commitSync(); // what was read holds no row
                        continue;
                    }
                    if (commitDue == null) {
                        commitDue = clock.instant().plus(COMMIT_EVERY);
                    }
                    if (clock.instant().isBefore(commitDue)) {
                        continue; // more rows may join this commit; the offsets wait for it
                    }
                    for (GenericRow row : pending) {
                        write.write(row);
                    }
                    commit.commit(commitId, write.prepareCommit(false, commitId));
                    commitId++;
                    pending.clear();
                    commitDue = null;
                    consumer.commitSync();
                }
            }
        }
    }

    /**
     * The record's rows; none when it cannot be made into rows the table takes, and then it is a
     * dead letter (retrying would fail the same way for ever).
     */
    private List<GenericRow> rowsOrDeadLetter(ConsumerRecord<String, String> record, RowType type) {
        try {
            List<GenericRow> rows = table.rowsOf(record);
            rows.forEach(row -> requireValues(row, type));
            return rows;
        } catch (RuntimeException unreadable) {
            deadLetters.deadLetter(
                    record,
                    "the "
                            + what
                            + " cannot hold the record at "
                            + record.topic()
                            + "-"
                            + record.partition()
                            + "@"
                            + record.offset()
                            + ": "
                            + unreadable.getMessage(),
                    unreadable.getClass().getName(),
                    Set.of());
            deadLettered.increment();
            return List.of();
        }
    }

    /** Paimon refuses a row without a value its table requires, at every try: checked first. */
    private static void requireValues(GenericRow row, RowType type) {
        for (int field = 0; field < type.getFieldCount(); field++) {
            if (!type.getTypeAt(field).isNullable() && row.isNullAt(field)) {
                throw new IllegalArgumentException(
                        "no value for " + type.getFieldNames().get(field) + ", which it requires");
            }
        }
    }

    private Duration durationUntil(Instant due) {
        Duration left = Duration.between(clock.instant(), due);
        return left.isNegative() ? Duration.ZERO : left;
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
