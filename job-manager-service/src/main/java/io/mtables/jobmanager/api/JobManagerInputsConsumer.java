package io.mtables.jobmanager.api;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.infra.JobManagerRuntime;
import io.mtables.messaging.EventReader;
import io.mtables.messaging.IncomingEvent;
import io.mtables.messaging.UnreadableRecordException;
import io.mtables.planning.StoredStatements;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * What the job manager acts on: definitions (what a table reads and writes), plans (start, change,
 * suspend or drop its pipeline) and ticks (one FULL refresh; the scheduler turns a manual refresh
 * into a MANUAL tick). Each record is acted on before its offset is committed; a record it cannot
 * read, or a definition whose SQL ddl-service would not have written ({@link StoredStatements}),
 * goes to {@code mt.dead-letters} with the reason.
 */
@ApplicationScoped
public class JobManagerInputsConsumer {

    static final List<Contract<?>> DEFINITIONS =
            List.of(Contracts.TABLE_DEFINED_V1, Contracts.TABLE_DROPPED_V1);
    static final List<Contract<?>> PLANS = List.of(Contracts.REFRESH_PLANNED_V1);
    static final List<Contract<?>> TICKS = List.of(Contracts.REFRESH_TICK_V1);

    private final EventReader reader;
    private final JobManagerRuntime runtime;
    private final Set<String> moreResumeOptions;

    public JobManagerInputsConsumer(
            EventReader reader, JobManagerRuntime runtime, JobManagerConfig config) {
        this.reader = reader;
        this.runtime = runtime;
        this.moreResumeOptions = config.flink().moreResumeOptions().orElse(Set.of());
    }

    @Incoming("table-definitions")
    @Blocking(ordered = true)
    public void onDefinition(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, DEFINITIONS);
        if (event.contract().equals(Contracts.TABLE_DEFINED_V1)) {
            var definition = event.payloadAs(Contracts.TABLE_DEFINED_V1);
            try {
                StoredStatements.check(definition, moreResumeOptions);
            } catch (StoredStatements.ForgedStatementException forged) {
                throw new UnreadableRecordException(
                        event.position() + ": " + forged.getMessage(), forged);
            }
            runtime.act(manager -> manager.onDefinition(definition));
        }
        // a drop acts through its DROPPED plan, which comes after it
    }

    @Incoming("refresh-plans")
    @Blocking(ordered = true)
    public void onPlan(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, PLANS);
        runtime.act(manager -> manager.onPlan(event.payloadAs(Contracts.REFRESH_PLANNED_V1)));
    }

    @Incoming("refresh-ticks")
    @Blocking(ordered = true)
    public void onTick(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, TICKS);
        runtime.actOnTick(event.payloadAs(Contracts.REFRESH_TICK_V1));
    }
}
