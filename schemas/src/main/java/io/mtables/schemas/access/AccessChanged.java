package io.mtables.schemas.access;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * A change of who may do what ({@code AccessChanged.v1} on {@code mt.ddl.access}, each under a
 * random key of its own, so that compaction keeps every one): a role created or dropped, a role
 * given to or taken from a principal, privileges granted or revoked. ddl-service alone writes and
 * reads it; it replays the topic from its start to know every grant.
 *
 * @param action what changed
 * @param role the role created, dropped, given or taken (CREATE_ROLE, DROP_ROLE, GRANT_ROLE,
 *     REVOKE_ROLE); null otherwise
 * @param privileges the privileges granted or revoked (GRANT, REVOKE); empty otherwise
 * @param objectType SCHEMA, TABLE or TOPIC (GRANT, REVOKE); null otherwise
 * @param object the schema ({@code catalog.database}), table ({@code catalog.database.name}) or
 *     topics (a topic's name, or a prefix of names ending in {@code *})
 * @param objectCreatedAt a table's creation time: a grant holds for that table only, not for one
 *     created later under its name; null for a schema or topics
 * @param grantee who receives or loses: {@code role:<name>}, {@code user:<sub>} or {@code
 *     service-account:<name>}; null for CREATE_ROLE and DROP_ROLE
 * @param by the principal that made the change
 * @param at when it was accepted
 * @param requestId the request that made it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AccessChanged(
        Action action,
        String role,
        List<String> privileges,
        String objectType,
        String object,
        Instant objectCreatedAt,
        String grantee,
        String by,
        Instant at,
        String requestId) {

    /** What an access change does. */
    public enum Action {
        CREATE_ROLE,
        DROP_ROLE,
        GRANT_ROLE,
        REVOKE_ROLE,
        GRANT,
        REVOKE
    }

    public AccessChanged {
        privileges = privileges == null ? List.of() : List.copyOf(privileges);
    }
}
