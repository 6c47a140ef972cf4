package io.mtables.ddl.api;

import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.metrics.StatementMetrics;
import io.mtables.ddl.statements.StatementService;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;

/**
 * Answers one authenticated caller's statement, for every door that takes statements (REST, the
 * PostgreSQL wire protocol): executed here by the active instance, or forwarded to it by a standby
 * ({@code CommandForwarder}, with the caller's credential, which the active instance checks again).
 */
@ApplicationScoped
public class StatementAnswers {

    /**
     * How long a standby waits for the active instance's answer: longer than a takeover (the
     * group's session timeout, then the catalog read back).
     */
    static final Duration FORWARD_PATIENCE = Duration.ofSeconds(60);

    private final DdlRuntime runtime;
    private final StatementMetrics metrics;

    public StatementAnswers(DdlRuntime runtime, StatementMetrics metrics) {
        this.runtime = runtime;
        this.metrics = metrics;
    }

    /**
     * The result of {@code statement}, sent through door {@code via} by {@code principal}, who
     * presented {@code authorization} ({@code Bearer <token>}); {@code requestId} names it.
     */
    public StatementResult answer(
            String via,
            String requestId,
            String statement,
            String authorization,
            String principal) {
        StatementResult result;
        try {
            result =
                    metrics.answered(
                            via,
                            runtime.standingBy()
                                    ? runtime.forwarder()
                                            .forward(
                                                    requestId,
                                                    statement,
                                                    authorization,
                                                    FORWARD_PATIENCE)
                                    : runtime.withService(
                                            service ->
                                                    service.execute(
                                                            requestId, statement, principal)));
        } catch (ServiceNotReadyException e) {
            return StatementResult.failed(
                    requestId,
                    StatementError.of("ServiceNotReady", e.getMessage(), null),
                    Instant.now());
        }
        if (!principal.equals(result.principal())) {
            // A standby knew the request id as another caller's (or as a result from before
            // principals, which is nobody's): never theirs to read.
            return StatementResult.failed(
                    requestId,
                    StatementError.of(
                            StatementService.REQUEST_ID_IN_USE,
                            "Request id "
                                    + requestId
                                    + " belongs to another caller's statement; nothing was done.",
                            "a request id of your own (a new UUID)"),
                    Instant.now());
        }
        return result;
    }
}
