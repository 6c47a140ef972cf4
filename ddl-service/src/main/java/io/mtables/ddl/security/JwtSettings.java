package io.mtables.ddl.security;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Refuses to start with a JWT key but no issuer or audience to check: SmallRye JWT then accepts a
 * token of any issuer the key signs for, or one issued to any other service.
 */
@ApplicationScoped
@Startup
public class JwtSettings {

    public JwtSettings(Config config) {
        boolean keyed =
                value(config, "mp.jwt.verify.publickey.location").isPresent()
                        || value(config, "mp.jwt.verify.publickey").isPresent();
        if (!keyed) {
            return; // no identity provider: every JWT is refused
        }
        for (String required : new String[] {"mp.jwt.verify.issuer", "mp.jwt.verify.audiences"}) {
            if (value(config, required).isEmpty()) {
                throw new IllegalStateException(
                        required
                                + " is not set: with a JWT key configured, ddl-service checks every"
                                + " token's issuer and audience (docs/security.md)");
            }
        }
    }

    private static Optional<String> value(Config config, String key) {
        return config.getOptionalValue(key, String.class).filter(v -> !v.isBlank());
    }
}
