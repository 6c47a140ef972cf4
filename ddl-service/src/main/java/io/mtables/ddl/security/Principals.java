package io.mtables.ddl.security;

import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * A caller's name as ddl-service records it on results: {@code service-account:<name>} for an API
 * key, {@code user:<subject>} for a JWT (its {@code sub}), so that an account and a person never
 * share one.
 */
public final class Principals {

    private Principals() {}

    public static String of(SecurityIdentity identity) {
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            // The subject: SmallRye's principal name is upn or preferred_username first, which
            // some identity providers let users choose.
            return "user:" + token.getSubject();
        }
        return "service-account:" + identity.getPrincipal().getName();
    }
}
