package io.mtables.ddl.security;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * A caller's name as ddl-service records it on results: {@code service-account:<name>} for an API
 * key, {@code user:<subject>} for a JWT, so that an account and a person never share one.
 */
public final class Principals {

    private Principals() {}

    public static String of(SecurityIdentity identity) {
        String kind =
                "api-key".equals(identity.getAttribute(ApiKeyIdentityProvider.METHOD))
                        ? "service-account:"
                        : "user:";
        return kind + identity.getPrincipal().getName();
    }
}
