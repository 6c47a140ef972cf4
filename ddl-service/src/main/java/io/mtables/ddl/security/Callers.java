package io.mtables.ddl.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.smallrye.jwt.runtime.auth.JsonWebTokenCredential;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Authenticates a caller from an {@code Authorization} value ({@code Bearer <token>}) outside HTTP:
 * the commands of {@code mt.ddl.commands}, which Kafka hands over without saying who produced them.
 * The same identity providers as the REST port's, so a command is let in exactly when the same
 * token would be over REST.
 */
@ApplicationScoped
public class Callers {

    private static final String BEARER = "Bearer ";

    private final IdentityProviderManager identities;

    public Callers(IdentityProviderManager identities) {
        this.identities = identities;
    }

    /** The caller, or empty when {@code authorization} is missing, malformed or not valid. */
    public Optional<SecurityIdentity> authenticate(String authorization) {
        if (authorization == null
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        String token = authorization.substring(BEARER.length()).trim();
        if (token.isEmpty()) {
            return Optional.empty();
        }
        try {
            // As JWTAuthMechanism hands it over: smallrye-jwt's validator takes only its own type.
            TokenCredential credential =
                    ApiKeys.looksLikeApiKey(token)
                            ? new TokenCredential(token, "bearer")
                            : new JsonWebTokenCredential(token);
            return Optional.of(
                    identities.authenticateBlocking(new TokenAuthenticationRequest(credential)));
        } catch (AuthenticationFailedException refused) {
            return Optional.empty();
        }
    }
}
