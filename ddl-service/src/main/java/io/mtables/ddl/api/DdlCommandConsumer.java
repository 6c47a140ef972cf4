package io.mtables.ddl.api;

import io.mtables.ddl.domain.StatementService;
import io.mtables.messaging.EventWriter;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.ContractViolationException;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/**
 * The Kafka front door: one {@code StatementResult} on {@code mt.ddl.results} for every command on
 * {@code mt.ddl.commands}, including the ones that cannot be read. The command is committed only
 * once its result is written.
 */
@ApplicationScoped
public class DdlCommandConsumer {

  static final String COMMAND_SHAPE = "{\"statement\": \"<one SQL statement>\", \"requestId\": \"<optional key>\"}";

  private final ContractCodec codec = new ContractCodec();
  private final StatementService statements;
  private final EventWriter writer;
  private final Clock clock;

  public DdlCommandConsumer(StatementService statements, EventWriter writer, Clock clock) {
    this.statements = statements;
    this.writer = writer;
    this.clock = clock;
  }

  @Incoming("ddl-commands")
  @Outgoing("ddl-results")
  public Message<String> onCommand(Message<String> command) {
    StatementResult result = resultOf(command);
    return writer
        .message(Contracts.STATEMENT_RESULT_V1, result.requestId(), result)
        .withAck(command::ack)
        .withNack(command::nack);
  }

  private StatementResult resultOf(Message<String> command) {
    String fallbackId = fallbackRequestId(command);
    DdlCommand parsed;
    try {
      parsed = codec.decode(Contracts.DDL_COMMAND_V1, command.getPayload());
    } catch (ContractViolationException e) {
      StatementError error = StatementError.of("MalformedCommand", e.getMessage(), COMMAND_SHAPE);
      return StatementResult.failed(fallbackId, error, clock.instant());
    }
    String requestId = parsed.requestId() != null ? parsed.requestId() : fallbackId;
    return statements.execute(requestId, parsed.statement());
  }

  /** The record key, else the command's position: a result can always be matched to its command. */
  @SuppressWarnings("unchecked")
  static String fallbackRequestId(Message<String> command) {
    IncomingKafkaRecordMetadata<String, String> kafka =
        command.getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow();
    if (kafka.getKey() != null && !kafka.getKey().isBlank()) {
      return kafka.getKey();
    }
    return kafka.getTopic() + "-" + kafka.getPartition() + "@" + kafka.getOffset();
  }
}
