package io.mtables.jobmanager.api;

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
 * What the job manager acts on: plans (start, change or stop a table's pipeline), ticks (run one
 * FULL refresh) and lifecycle commands (suspend, resume, refresh, drop). A record it cannot read
 * goes to {@code mt.dead-letters} with the reason.
 */
@ApplicationScoped
public class JobManagerInputsConsumer {

  private static final Logger LOG = Logger.getLogger(JobManagerInputsConsumer.class);

  /** The contracts read from each topic; they arrive with the planner and scheduler issues. */
  static final List<Contract<?>> PLANS = List.of(Contracts.REFRESH_PLANNED_V1);
  static final List<Contract<?>> TICKS = List.of();
  static final List<Contract<?>> LIFECYCLE_COMMANDS = List.of(Contracts.REFRESH_REQUESTED_V1);

  private final EventReader reader;

  public JobManagerInputsConsumer(EventReader reader) {
    this.reader = reader;
  }

  @Incoming("refresh-plans")
  public void onPlan(ConsumerRecord<String, String> record) {
    log(reader.read(record, PLANS));
  }

  @Incoming("refresh-ticks")
  public void onTick(ConsumerRecord<String, String> record) {
    log(reader.read(record, TICKS));
  }

  @Incoming("lifecycle-commands")
  public void onLifecycleCommand(ConsumerRecord<String, String> record) {
    log(reader.read(record, LIFECYCLE_COMMANDS));
  }

  private static void log(IncomingEvent event) {
    LOG.debugf("%s for %s at %s", event.contract().type(), event.key(), event.position());
  }
}
