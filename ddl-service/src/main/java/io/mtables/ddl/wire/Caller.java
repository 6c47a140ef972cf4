package io.mtables.ddl.wire;

import io.mtables.ddl.security.Principals;
import io.quarkus.security.identity.SecurityIdentity;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who a connection is, as authenticated at its start from the token given as its password.
 *
 * @param principal as results and the audit trail name it
 * @param authorization {@code Bearer <token>}, for a standby to forward with the statement
 * @param expiresAt when a JWT stops being valid; null for an API key
 * @param client the connection's address, for the audit trail
 */
record Caller(String principal, String authorization, Instant expiresAt, String client) {

    static Caller of(SecurityIdentity identity, String token, String client) {
        Instant expiresAt =
                identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getExpirationTime() > 0
                        ? Instant.ofEpochSecond(jwt.getExpirationTime())
                        : null;
        return new Caller(Principals.of(identity), "Bearer " + token, expiresAt, client);
    }

    boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }
}
