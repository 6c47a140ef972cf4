package io.mtables.ddl.api;

import io.mtables.ddl.audit.AuditProjection;
import io.mtables.messaging.EventReader;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the newest audit records for {@code information_schema.audit}: every instance's, read with
 * a consumer group of its own from the start of {@code mt.ddl.audit} at every start.
 */
@ApplicationScoped
public class StatementAuditsConsumer {

    private final EventReader reader;
    private final AuditProjection audits;

    public StatementAuditsConsumer(EventReader reader, AuditProjection audits) {
        this.reader = reader;
        this.audits = audits;
    }

    @Incoming("statement-audits")
    public void onAudit(ConsumerRecord<String, String> record) {
        audits.add(
                reader.read(record, List.of(Contracts.STATEMENT_AUDITED_V1))
                        .payloadAs(Contracts.STATEMENT_AUDITED_V1));
    }
}
