package io.mtables.schemas.ddl;

/**
 * A statement submitted on the DDL command topic: the same body as {@code POST /api/v1/statements}.
 *
 * @param statement one SQL statement of the dialect
 * @param requestId an idempotency key chosen by the sender; the result carries it back, and a
 *     command repeated with the same key is applied once
 */
public record DdlCommand(String statement, String requestId) {}
