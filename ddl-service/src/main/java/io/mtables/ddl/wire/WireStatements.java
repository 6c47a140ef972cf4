package io.mtables.ddl.wire;

import io.mtables.ddl.api.StatementAnswers;
import io.mtables.ddl.audit.AuditTrail;
import io.mtables.ddl.audit.StatementKinds;
import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One statement from a PostgreSQL client, answered as its REST twin is ({@link StatementAnswers},
 * recorded in the audit trail as {@code via: wire}), or by the door itself when it is about the
 * session ({@link SessionStatements}).
 */
@ApplicationScoped
public class WireStatements {

    /** Statements that only read, and so may run inside a transaction block. */
    private static final Set<String> READS =
            Set.of("SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "WITH", "VALUES");

    private static final java.util.regex.Pattern LEADING_PARENTHESES =
            java.util.regex.Pattern.compile("\\A[\\s(]+");

    private final StatementAnswers answers;
    private final AuditTrail audit;
    private final Clock clock;
    private final SessionStatements sessionStatements =
            new SessionStatements("PostgreSQL 15.0 (mtables, the PostgreSQL wire protocol)");

    public WireStatements(StatementAnswers answers, AuditTrail audit, Clock clock) {
        this.answers = answers;
        this.audit = audit;
        this.clock = clock;
    }

    /** Whether {@code statement} only reads (a query), so that running it early changes nothing. */
    static boolean isRead(String statement) {
        // A query in parentheses is a query too.
        String kind = StatementKinds.of(LEADING_PARENTHESES.matcher(statement).replaceFirst(""));
        return kind != null && READS.contains(kind.split(" ")[0]);
    }

    /**
     * The reply to {@code statement} from {@code caller}; a SELECT that streams comes as a cursor
     * when {@code mayStream}, otherwise its rows are read whole.
     */
    Reply run(String statement, Caller caller, Session session, boolean mayStream) {
        Optional<Reply> aboutTheSession = sessionStatements.answer(statement, session);
        if (aboutTheSession.isPresent()) {
            return aboutTheSession.get();
        }
        if (caller.expired(clock.instant())) {
            return new Reply.Failed(
                    SqlStates.INVALID_AUTHORIZATION,
                    "the token this connection authenticated with expired at " + caller.expiresAt(),
                    null,
                    "connect again with a new token as the password",
                    -1);
        }
        if (session.transaction != Session.Transaction.IDLE && !isRead(statement)) {
            String kind = Optional.ofNullable(StatementKinds.of(statement)).orElse("a change");
            return new Reply.Failed(
                    SqlStates.ACTIVE_SQL_TRANSACTION,
                    kind + " cannot run inside a transaction block",
                    "The catalog has no transactions: a change is durable when it is answered, and"
                            + " could not be rolled back with the block.",
                    "run it outside BEGIN ... COMMIT (with autocommit on)",
                    -1);
        }
        String requestId = UUID.randomUUID().toString();
        QueryAnswer answer =
                mayStream
                        ? answers.answer(
                                "wire",
                                requestId,
                                statement,
                                caller.authorization(),
                                caller.principal(),
                                ScanPosition.START)
                        : QueryAnswer.of(
                                answers.answer(
                                        "wire",
                                        requestId,
                                        statement,
                                        caller.authorization(),
                                        caller.principal()));
        audit.record("wire", caller.client(), caller.principal(), statement, answer.result());
        if (answer.cursor() != null) {
            return new Reply.Rows(answer.cursor().columns(), List.of(), List.of(), answer.cursor());
        }
        return replyOf(statement, answer.result());
    }

    static Reply replyOf(String statement, StatementResult result) {
        if (result.status() == StatementResult.Status.FAILED) {
            StatementError error = result.error();
            return new Reply.Failed(
                    SqlStates.of(error.reason()),
                    error.message(),
                    "reason: " + error.reason(),
                    error.allowed() == null ? null : "allowed: " + error.allowed(),
                    offset(statement, error.line(), error.column()));
        }
        if (result.columns() != null) {
            return new Reply.Rows(result.columns(), result.rows(), List.of());
        }
        String tag = Optional.ofNullable(StatementKinds.of(statement)).orElse("OK");
        return new Reply.Done(
                tag, result.message() == null ? List.of() : List.of(result.message()));
    }

    /**
     * The 0-based offset of 1-based {@code line} and {@code column} in {@code text}; -1 without.
     */
    private static int offset(String text, Integer line, Integer column) {
        return line == null || column == null
                ? -1
                : new SourcePosition(line, column).offsetIn(text);
    }
}
