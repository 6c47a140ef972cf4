package io.mtables.planner.api;

import io.mtables.messaging.EventReader;
import io.mtables.messaging.IncomingEvent;
import io.mtables.messaging.UnreadableRecordException;
import io.mtables.planner.domain.Planner;
import io.mtables.planner.infra.PlannerRuntime;
import io.mtables.planning.StoredStatements;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Plans every new definition version read from {@code mt.table.definitions}, in order. The offset
 * is committed after the plan is written; a redelivered definition finds its version planned and is
 * not planned again. A record it cannot read, or whose SQL ddl-service would not have written
 * ({@link StoredStatements}), goes to {@code mt.dead-letters} with the reason.
 */
@ApplicationScoped
public class TableDefinitionsConsumer {

    /** The definition contracts this service reads. */
    static final List<Contract<?>> DEFINITIONS =
            List.of(Contracts.TABLE_DEFINED_V1, Contracts.TABLE_DROPPED_V1);

    private final EventReader reader;
    private final PlannerRuntime runtime;
    private static final Logger LOG = Logger.getLogger(TableDefinitionsConsumer.class);

    private final Clock clock = Clock.systemUTC();

    public TableDefinitionsConsumer(EventReader reader, PlannerRuntime runtime) {
        this.reader = reader;
        this.runtime = runtime;
    }

    @Incoming("table-definitions")
    @Blocking(ordered = true)
    public void onDefinition(ConsumerRecord<String, String> record) {
        long receivedAt = clock.millis();
        IncomingEvent event = reader.read(record, DEFINITIONS);
        if (event.contract().equals(Contracts.TABLE_DEFINED_V1)) {
            try {
                StoredStatements.check(event.payloadAs(Contracts.TABLE_DEFINED_V1));
            } catch (StoredStatements.ForgedStatementException forged) {
                throw new UnreadableRecordException(
                        event.position() + ": " + forged.getMessage(), forged);
            }
        }
        var planner = runtime.planner();
        long planningFrom = clock.millis();
        Optional<Planner.Planned> plan =
                event.contract().equals(Contracts.TABLE_DEFINED_V1)
                        ? planner.plan(event.payloadAs(Contracts.TABLE_DEFINED_V1), clock.instant())
                        : planner.onDropped(
                                        event.payloadAs(Contracts.TABLE_DROPPED_V1),
                                        clock.instant())
                                .map(dropped -> new Planner.Planned(dropped, false));
        long plannedAt = clock.millis();
        if (plan.isEmpty()) {
            return; // a source table's definition: nothing to plan
        }
        runtime.publish(plan.get().plan());
        // Where a CREATE's time goes in this service (docs/benchmarks.md, control plane).
        LOG.infof(
                "definition of %s: received %d ms after it was written, waited %d ms for the"
                        + " planner, planned in %d ms%s, the plan written in %d ms",
                record.key(),
                receivedAt - record.timestamp(),
                planningFrom - receivedAt,
                plannedAt - planningFrom,
                plan.get().previewTaken() ? " (ddl-service's preview taken)" : "",
                clock.millis() - plannedAt);
    }
}
