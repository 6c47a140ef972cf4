package io.mtables.ddl.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/statements}.
 *
 * @param statement one statement of the dialect
 * @param requestId an idempotency key; a repeated key returns the first result and changes nothing
 */
public record StatementRequest(
        @Schema(required = true, examples = "SHOW MATERIALIZED TABLES") String statement,
        @Schema(examples = "ci-run-4711") String requestId) {}
