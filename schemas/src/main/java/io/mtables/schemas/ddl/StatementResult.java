package io.mtables.schemas.ddl;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * The outcome of one statement.
 *
 * @param requestId the command's request id (or, when it had none, the topic position of the
 *     command, as {@code topic-partition@offset})
 * @param status PENDING while it runs, then SUCCEEDED or FAILED
 * @param message one sentence for a human
 * @param table the table the statement changed or read, when it names one
 * @param columns for a query: the result columns
 * @param rows for a query: the rows, one list of values per row; on {@code mt.ddl.results} never
 *     (every client principal reads it): there a query's rows are {@code sealedRows}
 * @param sealedRows on {@code mt.ddl.results}, a query's rows sealed with the key its command gave
 *     ({@link SealedRows}); absent elsewhere
 * @param error why it failed; absent unless it failed
 * @param processedAt when ddl-service decided
 * @param principal who sent the statement ({@code service-account:<name>} or {@code
 *     user:<subject>}, docs/security.md): only they read the result by its request id; absent in
 *     results written before principals
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatementResult(
        String requestId,
        Status status,
        String message,
        String table,
        List<ResultColumn> columns,
        List<List<Object>> rows,
        String sealedRows,
        StatementError error,
        Instant processedAt,
        String principal) {

    /** Where the statement is. */
    public enum Status {
        PENDING,
        SUCCEEDED,
        FAILED
    }

    /**
     * A column of a query result.
     *
     * @param name the column name
     * @param type its SQL type
     */
    public record ResultColumn(String name, String type) {}

    /** The same result, sent by {@code principal}. */
    public StatementResult by(String principal) {
        return with(rows, sealedRows, principal);
    }

    /** The same result with its rows sealed ({@link SealedRows}) instead of in the clear. */
    public StatementResult sealed(String sealed) {
        return with(null, sealed, principal);
    }

    /** The same result with its rows in the clear (opened from {@code sealedRows}). */
    public StatementResult opened(List<List<Object>> opened) {
        return with(opened, null, principal);
    }

    private StatementResult with(List<List<Object>> rows, String sealedRows, String principal) {
        return new StatementResult(
                requestId,
                status,
                message,
                table,
                columns,
                rows,
                sealedRows,
                error,
                processedAt,
                principal);
    }

    /** A failed result. */
    public static StatementResult failed(String requestId, StatementError error, Instant at) {
        return new StatementResult(
                requestId, Status.FAILED, error.message(), null, null, null, null, error, at, null);
    }

    /** A change that was applied to {@code table}. */
    public static StatementResult succeeded(
            String requestId, String message, String table, Instant at) {
        return new StatementResult(
                requestId, Status.SUCCEEDED, message, table, null, null, null, null, at, null);
    }

    /** The rows of a query. */
    public static StatementResult rows(
            String requestId, List<ResultColumn> columns, List<List<Object>> rows, Instant at) {
        return new StatementResult(
                requestId,
                Status.SUCCEEDED,
                rows.size() + " row(s)",
                null,
                columns,
                rows,
                null,
                null,
                at,
                null);
    }
}
