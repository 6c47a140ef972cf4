package io.mtables.schemas.ddl;

import java.time.Instant;

/**
 * One statement ddl-service answered ({@code StatementAudited.v1} on {@code mt.ddl.audit},
 * append-only, keyed by request id): who sent it, from where, what it was (its SHA-256 and kind,
 * never its text) and what came of it.
 *
 * @param principal who sent it ({@code service-account:<name>}, {@code user:<sub>}); null when the
 *     sender was not authenticated
 * @param via {@code rest}, {@code kafka} or {@code wire} (the PostgreSQL wire protocol)
 * @param client the REST or wire caller's address ({@code host:port}), or the command's position on
 *     {@code mt.ddl.commands}
 * @param requestId the statement's request id, when one is known
 * @param statementSha256 the SHA-256 of the statement's text, in hex
 * @param statementKind its first words in upper case; null when it could not be read
 * @param table the table a successful change named
 * @param status {@code SUCCEEDED} or {@code FAILED}
 * @param reason the error's reason when it failed
 * @param at when it was answered
 */
public record StatementAudited(
        String principal,
        String via,
        String client,
        String requestId,
        String statementSha256,
        String statementKind,
        String table,
        StatementResult.Status status,
        String reason,
        Instant at) {}
