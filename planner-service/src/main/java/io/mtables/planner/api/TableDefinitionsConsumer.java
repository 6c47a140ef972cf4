package io.mtables.planner.api;

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
 * Reads table definitions from {@code mt.table.definitions}. A record it cannot read goes to
 * {@code mt.dead-letters} with the reason; the consumer moves on.
 */
@ApplicationScoped
public class TableDefinitionsConsumer {

  private static final Logger LOG = Logger.getLogger(TableDefinitionsConsumer.class);

  /** The definition contracts this service reads. Plans are made from them with the planner issue. */
  static final List<Contract<?>> DEFINITIONS =
      List.of(Contracts.TABLE_DEFINED_V1, Contracts.TABLE_DROPPED_V1);

  private final EventReader reader;

  public TableDefinitionsConsumer(EventReader reader) {
    this.reader = reader;
  }

  @Incoming("table-definitions")
  public void onDefinition(ConsumerRecord<String, String> record) {
    IncomingEvent definition = reader.read(record, DEFINITIONS);
    LOG.debugf("definition of %s at %s", definition.key(), definition.position());
  }
}
