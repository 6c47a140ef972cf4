package io.mtables.ddl.wire;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The PostgreSQL wire-protocol endpoint's settings (docs/clients.md). */
@ConfigMapping(prefix = "mt.wire")
public interface WireConfig {

    /** Whether ddl-service listens for PostgreSQL clients at all. */
    @WithDefault("true")
    boolean enabled();

    /** The address it listens on. */
    @WithDefault("0.0.0.0")
    String host();

    /** The port (0: any free port, as tests use). */
    @WithDefault("5433")
    int port();

    /**
     * The name of the Quarkus TLS configuration ({@code quarkus.tls.<name>.key-store.pem.*}) whose
     * certificate and key the endpoint offers to clients that ask for TLS ({@code sslmode}); when
     * that configuration does not exist, TLS is refused and only plaintext is possible.
     */
    @WithDefault("wire")
    String tlsConfigurationName();

    /**
     * Who may connect without TLS, and so send their token as a password in the clear: {@code
     * loopback} (the default: only clients on this machine), {@code anyone}, or {@code nobody}.
     */
    @WithDefault("loopback")
    Plaintext plaintext();

    /** How many clients may be connected at once; the next one is refused (SQLSTATE 53300). */
    @WithDefault("64")
    int maxConnections();

    /** Who may connect without TLS. */
    enum Plaintext {
        LOOPBACK,
        ANYONE,
        NOBODY
    }
}
