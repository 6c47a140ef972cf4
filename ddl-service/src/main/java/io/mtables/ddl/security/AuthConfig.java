package io.mtables.ddl.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;
import java.util.Set;

/**
 * Who may call ddl-service besides the holders of a JWT from the configured identity provider
 * ({@code mp.jwt.verify.*}): service accounts, each with the SHA-256 of its API key.
 */
@ConfigMapping(prefix = "mt.auth")
public interface AuthConfig {

    /** By account name; an account's key is {@code mtk.<name>.<secret>} (docs/security.md). */
    Map<String, ServiceAccount> serviceAccounts();

    /**
     * The principals that may do everything (every statement on every table, GRANT and REVOKE,
     * roles): {@code service-account:<name>} or {@code user:<sub>}.
     */
    @WithDefault("service-account:admin")
    Set<String> admins();

    interface ServiceAccount {

        /** The hex SHA-256 of the whole key: the key itself is never stored. */
        String keySha256();
    }
}
