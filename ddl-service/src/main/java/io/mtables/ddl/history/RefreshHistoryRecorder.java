package io.mtables.ddl.history;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.TableFreshness;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.recording.RecordedTable;
import io.mtables.ddl.recording.TopicRecorder;
import io.mtables.messaging.KafkaLog;
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
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Records the refresh history: reads {@code mt.refresh.events} and writes one row per refresh,
 * failure, suspension and freshness alert into {@link RefreshHistoryTable} (through a {@link
 * TopicRecorder}: the active instance of ddl-service alone, rows committed together, failures
 * counted as {@code mt_history_write_failures_total} and tried again). Rows beyond {@code
 * mt.history.max-per-table} per table or older than {@code mt.history.max-age} are deleted as it
 * goes.
 */
@ApplicationScoped
public class RefreshHistoryRecorder {

    private static final Logger LOG = Logger.getLogger(RefreshHistoryRecorder.class);
    private static final Duration AGE_SWEEP = Duration.ofMinutes(1);

    private final DdlRuntime runtime;
    private final RefreshStatusProjection statuses;
    private final PlanProjection plans;
    private final Clock clock;
    private final TopicRecorder recorder;
    private final ContractCodec codec = new ContractCodec();
    private int maxPerTable;
    private Duration maxAge;
    // The recording thread's alone: made again at each start of the recording.
    private HistoryBounds bounds;
    private Instant nextSweep;

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
        this.recorder =
                new TopicRecorder(
                        "refresh history",
                        Topics.REFRESH_EVENTS,
                        new Rows(),
                        "mt.history.write.failures",
                        clock,
                        registry);
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
        this.maxPerTable = maxPerTable;
        this.maxAge = maxAge;
        recorder.start(kafka, serviceName + "-refresh-history", commandsGroup);
    }

    void onStop(@Observes ShutdownEvent stop) throws InterruptedException {
        recorder.stop();
    }

    /** The history's rows: one per event that is history, and the deletions the bounds ask. */
    private final class Rows implements RecordedTable {

        @Override
        public FileStoreTable open(Catalog catalog) throws Exception {
            RefreshHistoryTable.create(catalog);
            bounds = new HistoryBounds(maxPerTable, maxAge);
            for (Object[] key : RefreshHistoryTable.keys(catalog)) {
                bounds.add((String) key[0], (String) key[1], (Long) key[2]);
            }
            nextSweep = clock.instant();
            return (FileStoreTable) catalog.getTable(RefreshHistoryTable.IDENTIFIER);
        }

        @Override
        public List<GenericRow> rowsOf(ConsumerRecord<String, String> record) {
            HistoryEntry entry = entryOf(record);
            if (entry == null || bounds.has(entry.table(), entry.eventId())) {
                return List.of();
            }
            List<GenericRow> rows = new ArrayList<>();
            rows.add(RefreshHistoryTable.row(entry));
            bounds.add(entry.table(), entry.eventId(), entry.finishedAt().toEpochMilli())
                    .forEach(
                            over ->
                                    rows.add(
                                            RefreshHistoryTable.deletion(
                                                    over.table(), over.eventId())));
            return rows;
        }

        @Override
        public List<GenericRow> due(Instant now) {
            if (now.isBefore(nextSweep)) {
                return List.of();
            }
            nextSweep = now.plus(AGE_SWEEP);
            return bounds.expired(now).stream()
                    .map(old -> RefreshHistoryTable.deletion(old.table(), old.eventId()))
                    .toList();
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
}
