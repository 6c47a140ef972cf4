package io.mtables.jobmanager.flink;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.SecurityOptions;

/**
 * HTTPS to a Flink cluster's REST port: the certificates to trust and, for a cluster that asks for
 * one ({@code security.ssl.rest.authentication-enabled}), this service's own key and certificate.
 * Both PKCS12 stores, handed to Flink's REST client as its {@code security.ssl.rest.*} settings and
 * opened here as the JDK's SSL context for the reads over {@code java.net.http} ({@link
 * FlinkRestReads}): one pair of stores, both clients.
 *
 * @param truststore the certificates to trust: the cluster's own, or the CA that signed it
 * @param truststorePassword its password
 * @param keystore this service's key and certificate, when the cluster asks for one
 * @param keystorePassword the key store's password, also its key's
 */
public record FlinkRestTls(
        Path truststore,
        String truststorePassword,
        Optional<Path> keystore,
        String keystorePassword) {

    private static final String TYPE = "PKCS12";

    /**
     * The settings as given. The stores are opened when the job manager reaches the cluster, at its
     * start ({@link #sslContext}): a wrong path or password fails the start, naming the setting.
     */
    public static FlinkRestTls of(
            Optional<String> truststore,
            Optional<String> truststorePassword,
            Optional<String> keystore,
            Optional<String> keystorePassword) {
        return new FlinkRestTls(
                Path.of(
                        truststore.orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "mt.flink.rest-tls.enabled=true needs"
                                                        + " mt.flink.rest-tls.truststore: a"
                                                        + " PKCS12 store of the cluster's"
                                                        + " certificate or of its CA"))),
                truststorePassword.orElse(""),
                keystore.map(Path::of),
                keystorePassword.orElse(""));
    }

    /** Flink's own REST client settings for these stores. */
    void applyTo(Configuration configuration) {
        configuration.set(SecurityOptions.SSL_REST_ENABLED, true);
        configuration.set(SecurityOptions.SSL_REST_TRUSTSTORE, truststore.toString());
        configuration.set(SecurityOptions.SSL_REST_TRUSTSTORE_PASSWORD, truststorePassword);
        configuration.set(SecurityOptions.SSL_REST_TRUSTSTORE_TYPE, TYPE);
        keystore.ifPresent(
                store -> {
                    // A REST client sends its certificate only when it is told the server asks.
                    configuration.set(SecurityOptions.SSL_REST_AUTHENTICATION_ENABLED, true);
                    configuration.set(SecurityOptions.SSL_REST_KEYSTORE, store.toString());
                    configuration.set(SecurityOptions.SSL_REST_KEYSTORE_PASSWORD, keystorePassword);
                    configuration.set(SecurityOptions.SSL_REST_KEY_PASSWORD, keystorePassword);
                    configuration.set(SecurityOptions.SSL_REST_KEYSTORE_TYPE, TYPE);
                });
    }

    /** The same stores as the JDK's SSL context. */
    public SSLContext sslContext() {
        try {
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(truststore, truststorePassword, "mt.flink.rest-tls.truststore"));
            KeyManagerFactory keys = null;
            if (keystore.isPresent()) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(
                        load(keystore.get(), keystorePassword, "mt.flink.rest-tls.keystore"),
                        keystorePassword.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot make an SSL context of mt.flink.rest-tls's stores: " + e.getMessage(),
                    e);
        }
    }

    private static KeyStore load(Path path, String password, String setting) {
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore store = KeyStore.getInstance(TYPE);
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    setting
                            + " ("
                            + path
                            + ") cannot be read as a PKCS12 store with its password: "
                            + e.getMessage(),
                    e);
        }
    }
}
