package io.mtables.ddl.api;

import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.messaging.UnreadableRecordException;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.ContractViolationException;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.StatementError;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import io.smallrye.reactive.messaging.annotations.Blocking;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The Kafka front door: every command on {@code mt.ddl.commands} gets one result on {@code
 * mt.ddl.results}, written by the statement service. A command that cannot be read gets a FAILED
 * result and also goes to {@code mt.dead-letters}; the consumer moves on to the next command. The
 * command's offset is committed only after its result is written, and a redelivered command finds
 * its request id already answered.
 */
@ApplicationScoped
public class DdlCommandConsumer {

  static final String COMMAND_SHAPE = "{\"statement\": \"<one SQL statement>\", \"requestId\": \"<optional key>\"}";

  private final ContractCodec codec = new ContractCodec();
  private final DdlRuntime runtime;

  public DdlCommandConsumer(DdlRuntime runtime) {
    this.runtime = runtime;
  }

  @Incoming("ddl-commands")
  @Blocking(ordered = true)
  public void onCommand(ConsumerRecord<String, String> command) {
    runtime.awaitReady();
    String fallbackId = fallbackRequestId(command);
    DdlCommand parsed;
    try {
      parsed = codec.decode(Contracts.DDL_COMMAND_V1, command.value());
    } catch (ContractViolationException e) {
      StatementError error = StatementError.of("MalformedCommand", e.getMessage(), COMMAND_SHAPE);
      runtime.withService(service -> service.recordFailure(fallbackId, error));
      throw new UnreadableRecordException("ddl-service cannot read the command at " + position(command) + ": " + e.getMessage(), e);
    }
    String requestId = parsed.requestId() != null ? parsed.requestId() : fallbackId;
    runtime.withService(service -> service.executeCommand(requestId, parsed.statement()));
  }

  /** The record key, else the command's position: a result can always be matched to its command. */
  static String fallbackRequestId(ConsumerRecord<String, String> command) {
    return command.key() != null && !command.key().isBlank() ? command.key() : position(command);
  }

  private static String position(ConsumerRecord<String, String> command) {
    return command.topic() + "-" + command.partition() + "@" + command.offset();
  }
}
