package io.mtables.ddl.security;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/**
 * Who may call ddl-service besides the holders of a JWT from the configured identity provider
 * ({@code mp.jwt.verify.*}): service accounts, each with the SHA-256 of its API key.
 */
@ConfigMapping(prefix = "mt.auth")
public interface AuthConfig {

    /** By account name; an account's key is {@code mtk.<name>.<secret>} (docs/security.md). */
    Map<String, ServiceAccount> serviceAccounts();

    interface ServiceAccount {

        /** The hex SHA-256 of the whole key: the key itself is never stored. */
        String keySha256();
    }
}
