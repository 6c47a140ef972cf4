package io.mtables.ddl.audit;

import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Records the audit trail ({@code mt.ddl.audit}) into {@link AuditTable}, a row per record, through
 * a {@link TopicRecorder}: the active instance of ddl-service alone, rows committed together,
 * failures counted as {@code mt_audit_table_write_failures_total} and tried again; a record that
 * cannot be read is a dead letter ({@code mt_recording_dead_letters_total{table="audit trail"}}).
 */
@ApplicationScoped
public class AuditRecorder {

    private final TopicRecorder recorder;
    private final ContractCodec codec = new ContractCodec();

    public AuditRecorder(Clock clock, MeterRegistry registry) {
        this.recorder =
                new TopicRecorder(
                        "audit trail",
                        Topics.DDL_AUDIT,
                        new Rows(),
                        "mt.audit.table.write.failures",
                        clock,
                        registry);
    }

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            @ConfigProperty(name = "mp.messaging.incoming.ddl-commands.group.id")
                    String commandsGroup) {
        recorder.start(kafka, serviceName + "-audit-table", commandsGroup);
    }

    void onStop(@Observes ShutdownEvent stop) throws InterruptedException {
        recorder.stop();
    }

    private final class Rows implements RecordedTable {

        @Override
        public FileStoreTable open(Catalog catalog) throws Exception {
            AuditTable.create(catalog);
            return (FileStoreTable) catalog.getTable(AuditTable.IDENTIFIER);
        }

        @Override
        public List<GenericRow> rowsOf(ConsumerRecord<String, String> record) {
            String type = KafkaLog.header(record, EventHeaders.TYPE);
            if (!Contracts.STATEMENT_AUDITED_V1.type().equals(type)) {
                throw new IllegalArgumentException(
                        "a record of type "
                                + type
                                + ", not "
                                + Contracts.STATEMENT_AUDITED_V1.type());
            }
            return List.of(
                    AuditTable.row(
                            record.partition() + "@" + record.offset(),
                            codec.decode(Contracts.STATEMENT_AUDITED_V1, record.value())));
        }
    }
}
