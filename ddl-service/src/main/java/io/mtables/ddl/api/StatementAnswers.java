package io.mtables.ddl.api;

import io.mtables.ddl.infra.CommandForwarder;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.metrics.StatementMetrics;
import io.mtables.ddl.statements.PageTokens;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.ddl.statements.StatementRefusals;
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
     * As {@link #answer(String, String, String, String, String)}, for a door that streams: a SELECT
     * whose rows go straight from one table to the answer comes as a cursor from {@code from}
     * (closed by the caller). A standby forwards the statement and answers its rows whole: it has
     * no page to go on from.
     */
    public QueryAnswer answer(
            String via,
            String requestId,
            String statement,
            String authorization,
            String principal,
            ScanPosition from) {
        if (runtime.standingBy()) {
            if (!from.isStart()) {
                StatementError elsewhere =
                        StatementError.of(
                                PageTokens.INVALID_PAGE_TOKEN,
                                "This instance stands by: the active instance gave the token and"
                                        + " reads the pages.",
                                "the next page from the instance that gave the first, or the"
                                        + " SELECT again");
                return QueryAnswer.of(
                        metrics.answered(
                                via,
                                StatementResult.failed(requestId, elsewhere, Instant.now())
                                        .by(principal)));
            }
            return QueryAnswer.of(answer(via, requestId, statement, authorization, principal));
        }
        QueryAnswer answer;
        try {
            answer =
                    runtime.withService(
                            service -> service.answer(requestId, statement, principal, from));
        } catch (ServiceNotReadyException e) {
            return QueryAnswer.of(
                    StatementResult.failed(
                            requestId,
                            StatementError.of("ServiceNotReady", e.getMessage(), null),
                            Instant.now()));
        }
        metrics.answered(via, answer.result());
        if (!principal.equals(answer.result().principal())) {
            if (answer.cursor() != null) {
                answer.cursor().close();
            }
            return QueryAnswer.of(StatementRefusals.requestIdInUse(requestId, Instant.now()));
        }
        return answer.cursor() == null && answer.result().sealedRows() != null
                ? QueryAnswer.of(CommandForwarder.opened(answer.result(), authorization))
                : answer;
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
            return StatementRefusals.requestIdInUse(requestId, Instant.now());
        }
        // The caller's own earlier command, its rows sealed on the result log.
        return CommandForwarder.opened(result, authorization);
    }
}
