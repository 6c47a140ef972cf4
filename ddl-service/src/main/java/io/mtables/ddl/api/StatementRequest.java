package io.mtables.ddl.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/statements}.
 *
 * @param statement one statement of the dialect
 * @param requestId an idempotency key; a repeated key returns the first result and changes nothing
 * @param pageSize for a SELECT that streams, the most rows of this page (1 to {@code
 *     mt.ddl.read-max-rows}); absent: its rows whole, up to {@code mt.ddl.read-max-rows}
 * @param pageToken the previous page's {@code nextPageToken}, sent with the same statement
 */
public record StatementRequest(
        @Schema(required = true, examples = "SHOW MATERIALIZED TABLES") String statement,
        @Schema(examples = "ci-run-4711") String requestId,
        @Schema(
                        description =
                                "The most rows of this page, for a SELECT that picks columns of one"
                                        + " table's rows (others come whole)",
                        examples = "10000")
                Integer pageSize,
        @Schema(description = "The previous page's nextPageToken, with the same statement")
                String pageToken) {

    /** A statement with a request id, and no page. */
    public StatementRequest(String statement, String requestId) {
        this(statement, requestId, null, null);
    }
}
