package io.mtables.ddl.history;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.TableFreshness;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.active.ActiveInstance;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Records the refresh history: reads {@code mt.refresh.events} with a consumer group of its own and
 * writes one row per refresh, failure, suspension and freshness alert into {@link
 * RefreshHistoryTable}, the rows of up to {@link #COMMIT_EVERY} in one Paimon commit, committing
 * the Kafka offsets only after Paimon committed the rows (an event read again is the same row).
 * Rows beyond {@code mt.history.max-per-table} per table or older than {@code mt.history.max-age}
 * are deleted as it goes. A failure is counted ({@code mt_history_write_failures_total}) and the
 * whole step is tried again 5 s later from the last committed offsets. Only the active instance of
 * ddl-service records.
 */
@ApplicationScoped
public class RefreshHistoryRecorder {

    private static final Logger LOG = Logger.getLogger(RefreshHistoryRecorder.class);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(5);
    private static final Duration AGE_SWEEP = Duration.ofMinutes(1);

    /**
     * How long rows wait for others to join their Paimon commit: each commit writes a snapshot, its
     * manifests and files and compacts, and with a commit per poll the recorder took more of
     * ddl-service's CPU than anything else in it while tables ran (bin/bench control-plane, 5
     * tables checkpointing twice a second).
     */
    static final Duration COMMIT_EVERY = Duration.ofSeconds(1);

    private final DdlRuntime runtime;
    private final RefreshStatusProjection statuses;
    private final PlanProjection plans;
    private final Clock clock;
    private final Counter failures;
    private final MeterRegistry registry;
    private final ContractCodec codec = new ContractCodec();
    private volatile boolean stopped;
    private Thread thread;
    private ActiveInstance role;

    public RefreshHistoryRecorder(
            DdlRuntime runtime,
            RefreshStatusProjection statuses,
            PlanProjection plans,
            Clock clock,
            MeterRegistry registry) {
        this.runtime = runtime;
        this.statuses = statuses;
        this.plans = plans;
        this.clock = clock;
        this.registry = registry;
        this.failures =
                Counter.builder("mt.history.write.failures")
                        .description("Refresh history writes that failed and were tried again")
                        .register(registry);
    }

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            @ConfigProperty(name = "mt.history.max-per-table", defaultValue = "200")
                    int maxPerTable,
            @ConfigProperty(name = "mt.history.max-age", defaultValue = "7d") Duration maxAge,
            @ConfigProperty(name = "mp.messaging.incoming.ddl-commands.group.id")
                    String commandsGroup) {
        Map<String, Object> consumer = new HashMap<>(KafkaLog.clientConfig(kafka));
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, serviceName + "-refresh-history");
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Large polls: a burst of events is read at once.
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        var location = WarehouseReader.configured(ConfigProvider.getConfig());
        // One writer of the history table: the active instance of ddl-service.
        role = ActiveInstance.of(commandsGroup);
        thread =
                new Thread(
                        () -> {
                            try {
                                role.awaitActive();
                            } catch (InterruptedException e) {
                                return;
                            }
                            recordUntilStopped(consumer, location, maxPerTable, maxAge);
                        },
                        "refresh-history");
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.setDaemon(true);
        thread.start();
    }

    void onStop(@Observes ShutdownEvent stop) throws InterruptedException {
        stopped = true;
        if (thread != null) {
            if (!role.isActive()) {
                thread.interrupt(); // a standby's wait ends; a recording one finishes its step
            }
            thread.join(Duration.ofSeconds(10).toMillis());
        }
    }

    private void recordUntilStopped(
            Map<String, Object> consumerConfig,
            Warehouse warehouse,
            int maxPerTable,
            Duration maxAge) {
        while (!stopped) {
            try {
                record(consumerConfig, warehouse, new HistoryBounds(maxPerTable, maxAge));
            } catch (Exception e) {
                failures.increment();
                LOG.warnf(
                        e,
                        "writing the refresh history failed; trying again in %d s from the last"
                                + " committed event",
                        RETRY_PAUSE.toSeconds());
                sleep(RETRY_PAUSE);
            }
        }
    }

    private void record(
            Map<String, Object> consumerConfig, Warehouse warehouse, HistoryBounds bounds)
            throws Exception {
        try (Catalog catalog = RefreshHistoryTable.catalog(warehouse);
                KafkaConsumer<String, String> consumer =
                        new KafkaConsumer<>(
                                consumerConfig,
                                new StringDeserializer(),
                                new StringDeserializer());
                // Its lag on /q/metrics beside the other consumers'
                // (kafka_consumer_fetch_manager_records_lag_max).
                KafkaClientMetrics consumerMetrics = new KafkaClientMetrics(consumer)) {
            consumerMetrics.bindTo(registry);
            RefreshHistoryTable.create(catalog);
            for (Object[] key : RefreshHistoryTable.keys(catalog)) {
                bounds.add((String) key[0], (String) key[1], (Long) key[2]);
            }
            FileStoreTable table =
                    (FileStoreTable) catalog.getTable(RefreshHistoryTable.IDENTIFIER);
            StreamWriteBuilder builder =
                    table.newStreamWriteBuilder()
                            .withCommitUser("ddl-service-history-" + UUID.randomUUID());
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                consumer.subscribe(List.of(Topics.REFRESH_EVENTS));
                long commitId = 0;
                Instant nextSweep = clock.instant();
                List<GenericRow> pending = new ArrayList<>();
                Instant commitDue = null;
                while (!stopped) {
                    Duration wait =
                            commitDue == null ? Duration.ofSeconds(1) : durationUntil(commitDue);
                    for (ConsumerRecord<String, String> record : consumer.poll(wait)) {
                        HistoryEntry entry = entryOf(record);
                        if (entry == null || bounds.has(entry.table(), entry.eventId())) {
                            continue;
                        }
                        pending.add(RefreshHistoryTable.row(entry));
                        bounds.add(
                                        entry.table(),
                                        entry.eventId(),
                                        entry.finishedAt().toEpochMilli())
                                .forEach(
                                        over ->
                                                pending.add(
                                                        RefreshHistoryTable.deletion(
                                                                over.table(), over.eventId())));
                    }
                    if (!clock.instant().isBefore(nextSweep)) {
                        bounds.expired(clock.instant())
                                .forEach(
                                        old ->
                                                pending.add(
                                                        RefreshHistoryTable.deletion(
                                                                old.table(), old.eventId())));
                        nextSweep = clock.instant().plus(AGE_SWEEP);
                    }
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
     * The history row an event stands for; null for events that are not history (a job started).
     */
    private HistoryEntry entryOf(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return null;
        }
        String type = KafkaLog.header(record, EventHeaders.TYPE);
        String id = record.partition() + "@" + record.offset();
        try {
            if (Contracts.REFRESH_SUCCEEDED_V1.type().equals(type)) {
                var event = codec.decode(Contracts.REFRESH_SUCCEEDED_V1, record.value());
                return HistoryEntry.of(id, event, freshnessOf(event.table()));
            } else if (Contracts.REFRESH_FAILED_V1.type().equals(type)) {
                return HistoryEntry.of(
                        id, codec.decode(Contracts.REFRESH_FAILED_V1, record.value()));
            } else if (Contracts.SUSPENDED_V1.type().equals(type)) {
                return HistoryEntry.of(id, codec.decode(Contracts.SUSPENDED_V1, record.value()));
            } else if (Contracts.FRESHNESS_MISSED_V1.type().equals(type)) {
                return HistoryEntry.of(
                        id, codec.decode(Contracts.FRESHNESS_MISSED_V1, record.value()));
            } else if (Contracts.FRESHNESS_RESTORED_V1.type().equals(type)) {
                return HistoryEntry.of(
                        id, codec.decode(Contracts.FRESHNESS_RESTORED_V1, record.value()));
            }
        } catch (RuntimeException unreadable) {
            // ddl-service's status consumer sends such a record to the dead letters; it has no row
            // here.
            LOG.warnf(
                    "the refresh history skips the unreadable %s record at %s-%s: %s",
                    type, record.topic(), id, unreadable.getMessage());
        }
        return null;
    }

    /** The table's freshness now, when the catalog knows it. */
    private Duration freshnessOf(String table) {
        return runtime.catalog()
                .flatMap(
                        catalog ->
                                catalog.find(table)
                                        .flatMap(
                                                definition ->
                                                        new TableFreshness(catalog, statuses, plans)
                                                                .target(definition)))
                .orElse(null);
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
