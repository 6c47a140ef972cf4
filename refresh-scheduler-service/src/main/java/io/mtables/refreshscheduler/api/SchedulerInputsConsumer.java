package io.mtables.refreshscheduler.api;

import io.mtables.messaging.EventReader;
import io.mtables.messaging.IncomingEvent;
import io.mtables.refreshscheduler.infra.SchedulerRuntime;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * What the scheduler listens to through its consumer groups: the plans of the tables it owns (which
 * tables tick, and how often) and lifecycle commands (manual refresh). Plans of all tables and
 * refresh outcomes, which order chains, are read by the ChainWatcher. A record it cannot read goes
 * to {@code mt.dead-letters} with the reason.
 */
@ApplicationScoped
public class SchedulerInputsConsumer {

    private static final Logger LOG = Logger.getLogger(SchedulerInputsConsumer.class);

    /** The contracts read from each topic; they arrive with the planner and job-manager issues. */
    static final List<Contract<?>> PLANS = List.of(Contracts.REFRESH_PLANNED_V1);

    static final List<Contract<?>> LIFECYCLE_COMMANDS = List.of(Contracts.REFRESH_REQUESTED_V1);

    private final EventReader reader;
    private final SchedulerRuntime runtime;

    public SchedulerInputsConsumer(EventReader reader, SchedulerRuntime runtime) {
        this.reader = reader;
        this.runtime = runtime;
    }

    /** Plans of the partitions this instance owns (see PlansOwnership). */
    @Incoming("refresh-plans")
    @io.smallrye.reactive.messaging.annotations.Blocking(ordered = true)
    public void onPlan(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, PLANS);
        runtime.onPlan(event.payloadAs(Contracts.REFRESH_PLANNED_V1), record.partition());
    }

    /** ALTER ... REFRESH: a MANUAL tick, written before the command's offset is committed. */
    @Incoming("lifecycle-commands")
    @io.smallrye.reactive.messaging.annotations.Blocking(ordered = true)
    public void onLifecycleCommand(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, LIFECYCLE_COMMANDS);
        runtime.onRefreshRequested(event.payloadAs(Contracts.REFRESH_REQUESTED_V1));
    }
}
