package io.mtables.ddl.statements;

import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Instant;

/** Refusals of a request as a whole, before or instead of its statement, for every door. */
public final class StatementRefusals {

    private StatementRefusals() {}

    /** A request id that belongs to another caller's statement: nothing done, nothing read. */
    public static StatementResult requestIdInUse(String requestId, Instant at) {
        return StatementResult.failed(
                requestId,
                StatementError.of(
                        StatementService.REQUEST_ID_IN_USE,
                        "Request id "
                                + requestId
                                + " belongs to another caller's statement; nothing was done.",
                        "a request id of your own (a new UUID)"),
                at);
    }

    /** A change Kafka did not acknowledge: not applied, so the same request may come again. */
    static StatementResult brokerUnavailable(String requestId, String cause, Instant at) {
        return StatementResult.failed(
                requestId,
                StatementError.of(
                        StatementService.BROKER_UNAVAILABLE,
                        "Kafka did not acknowledge the change, so it was not applied: "
                                + cause
                                + ".",
                        "send the same request again (same requestId) once Kafka is back"),
                at);
    }

    /** A page token sent with a statement whose answer has no pages. */
    static StatementResult noPages(String requestId, Instant at) {
        return StatementResult.failed(
                requestId,
                StatementError.of(
                        PageTokens.INVALID_PAGE_TOKEN,
                        "This statement's answer has no pages: a page token goes with the SELECT"
                                + " that gave it.",
                        "the statement without a page token"),
                at);
    }
}
