package io.mtables.ddl.api;

import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.audit.AuditTrail;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.metrics.StatementMetrics;
import io.mtables.ddl.security.Callers;
import io.mtables.ddl.security.Principals;
import io.mtables.ddl.statements.StatementService;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.ContractViolationException;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.SealedRows;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.crypto.SecretKey;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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

    static final String COMMAND_SHAPE =
            "{\"statement\": \"<one SQL statement>\", \"requestId\": \"<optional key>\"}";

    private final ContractCodec codec = new ContractCodec();
    private final DdlRuntime runtime;
    private final DdlConfig config;
    private final StatementMetrics metrics;
    private final Callers callers;
    private final AuditTrail audit;

    public DdlCommandConsumer(
            DdlRuntime runtime,
            DdlConfig config,
            StatementMetrics metrics,
            Callers callers,
            AuditTrail audit) {
        this.runtime = runtime;
        this.config = config;
        this.metrics = metrics;
        this.callers = callers;
        this.audit = audit;
    }

    @Incoming("ddl-commands")
    @Blocking(ordered = true)
    public void onCommand(ConsumerRecord<String, String> command) {
        runtime.awaitReady();
        String fallbackId = fallbackRequestId(command);
        var sender = callers.authenticate(authorization(command));
        if (sender.isEmpty()) {
            refuse(
                    command,
                    fallbackId,
                    null,
                    StatementError.of(
                            "Unauthenticated",
                            "The command carries no valid credential: its '"
                                    + EventHeaders.AUTHORIZATION
                                    + "' header must hold 'Bearer <token>' with a service"
                                    + " account's API key or a JWT from the configured identity"
                                    + " provider, as on the REST port.",
                            null));
            return;
        }
        int bytes =
                command.value() == null
                        ? 0
                        : command.value().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.maxStatementBytes()) {
            String limit =
                    "at most " + config.maxStatementBytes() + " bytes (mt.ddl.max-statement-bytes)";
            refuse(
                    command,
                    fallbackId,
                    Principals.of(sender.get()),
                    StatementError.of(
                            "StatementTooLarge", "The command has " + bytes + " bytes.", limit));
            return;
        }
        DdlCommand parsed;
        try {
            parsed = codec.decode(Contracts.DDL_COMMAND_V1, command.value());
        } catch (ContractViolationException e) {
            refuse(
                    command,
                    fallbackId,
                    Principals.of(sender.get()),
                    StatementError.of("MalformedCommand", e.getMessage(), COMMAND_SHAPE));
            return;
        }
        String requestId = parsed.requestId() != null ? parsed.requestId() : fallbackId;
        String principal = Principals.of(sender.get());
        SecretKey rowsKey;
        try {
            String key = header(command, EventHeaders.RESULT_KEY);
            rowsKey = key == null ? null : SealedRows.key(key);
        } catch (IllegalArgumentException e) {
            refuse(
                    command,
                    requestId,
                    principal,
                    StatementError.of(
                            "MalformedCommand",
                            "The header '" + EventHeaders.RESULT_KEY + "': " + e.getMessage() + ".",
                            "a 256-bit AES key, base64 (32 bytes), or no such header"));
            return;
        }
        StatementResult result =
                executeUntilAnswered(
                        requestId, parsed.statement(), position(command), principal, rowsKey);
        audit.record("kafka", position(command), principal, parsed.statement(), result);
    }

    /**
     * A change Kafka did not take was not applied and has no result yet: the command is executed
     * again until it has one, and its offset is committed only then.
     */
    private StatementResult executeUntilAnswered(
            String requestId,
            String statement,
            String position,
            String principal,
            SecretKey rowsKey) {
        StatementResult result;
        while (isBrokerUnavailable(
                result =
                        metrics.answered(
                                "kafka",
                                runtime.withServiceWhenReady(
                                        service ->
                                                service.executeCommand(
                                                        requestId, statement, position, principal,
                                                        rowsKey))))) {
            try {
                Thread.sleep(RETRY_PAUSE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(
                        "interrupted while retrying command " + requestId, e);
            }
        }
        return result;
    }

    private static final Duration RETRY_PAUSE = Duration.ofSeconds(2);

    private static boolean isBrokerUnavailable(StatementResult result) {
        return result.error() != null
                && StatementService.BROKER_UNAVAILABLE.equals(result.error().reason());
    }

    /**
     * Answers FAILED (under the request id only for a known sender whose id is free: {@code
     * StatementService.recordRefusal}), then sends the command to the dead-letter topic.
     *
     * @param principal the authenticated sender, null when not authenticated
     */
    private void refuse(
            ConsumerRecord<String, String> command,
            String requestId,
            String principal,
            StatementError error) {
        StatementResult refused =
                runtime.withService(
                        service ->
                                service.recordRefusal(
                                        requestId, error, position(command), principal));
        if (refused != null) { // null: redelivered, and its result no longer remembered
            audit.record("kafka", position(command), principal, null, refused);
        }
        // Dead-lettered here rather than by the channel's queue, which would copy the
        // credential along with every other header.
        runtime.deadLetterCommand(
                command,
                "ddl-service cannot read the command at "
                        + position(command)
                        + ": "
                        + error.message());
    }

    private static String authorization(ConsumerRecord<String, String> command) {
        return header(command, EventHeaders.AUTHORIZATION);
    }

    private static String header(ConsumerRecord<String, String> command, String name) {
        var header = command.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /**
     * The record key, else the command's position: a result can always be matched to its command.
     */
    static String fallbackRequestId(ConsumerRecord<String, String> command) {
        return command.key() != null && !command.key().isBlank()
                ? command.key()
                : position(command);
    }

    private static String position(ConsumerRecord<String, String> command) {
        return command.topic() + "-" + command.partition() + "@" + command.offset();
    }
}
