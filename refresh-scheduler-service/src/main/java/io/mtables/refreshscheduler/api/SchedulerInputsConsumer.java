package io.mtables.refreshscheduler.api;

import io.mtables.messaging.EventReader;
import io.mtables.messaging.IncomingEvent;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * What the scheduler listens to: plans (which tables tick, and how often), refresh events (an
 * upstream table refreshed, so its dependants tick) and lifecycle commands (manual refresh,
 * suspend, resume, drop). A record it cannot read goes to {@code mt.dead-letters} with the reason.
 */
@ApplicationScoped
public class SchedulerInputsConsumer {

  private static final Logger LOG = Logger.getLogger(SchedulerInputsConsumer.class);

  /** The contracts read from each topic; they arrive with the planner and job-manager issues. */
  static final List<Contract<?>> PLANS = List.of(Contracts.REFRESH_PLANNED_V1);
  static final List<Contract<?>> REFRESH_EVENTS = Contracts.REFRESH_EVENTS;
  static final List<Contract<?>> LIFECYCLE_COMMANDS = List.of(Contracts.REFRESH_REQUESTED_V1);

  private final EventReader reader;

  public SchedulerInputsConsumer(EventReader reader) {
    this.reader = reader;
  }

  @Incoming("refresh-plans")
  public void onPlan(ConsumerRecord<String, String> record) {
    log(reader.read(record, PLANS));
  }

  @Incoming("refresh-events")
  public void onRefreshEvent(ConsumerRecord<String, String> record) {
    log(reader.read(record, REFRESH_EVENTS));
  }

  @Incoming("lifecycle-commands")
  public void onLifecycleCommand(ConsumerRecord<String, String> record) {
    log(reader.read(record, LIFECYCLE_COMMANDS));
  }

  private static void log(IncomingEvent event) {
    LOG.debugf("%s for %s at %s", event.contract().type(), event.key(), event.position());
  }
}
