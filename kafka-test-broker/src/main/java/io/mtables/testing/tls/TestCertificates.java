package io.mtables.testing.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Keys and certificates for the tests' TLS, made by the JDK's {@code keytool} (no crypto of ours):
 * each party a key of its own with a self-signed certificate for 127.0.0.1 and localhost (and the
 * addresses given), in a PKCS12 store; the parties it trusts in a PKCS12 store of their
 * certificates.
 */
public final class TestCertificates {

    /** The password of every store made here. */
    public static final String PASSWORD = "test-store-password";

    private TestCertificates() {}

    /**
     * A key and its self-signed certificate, {@code <dir>/<name>.p12} (a name not used in {@code
     * dir} yet); the certificate alone (PEM) beside it as {@code <name>.crt}.
     */
    public static Path keyStore(Path dir, String name) {
        return keyStore(dir, name, List.of());
    }

    /**
     * As {@link #keyStore(Path, String)}, the certificate valid for these IP addresses too (a host
     * of the distributed test's network: clients check the address they connect to).
     */
    public static Path keyStore(Path dir, String name, List<String> addresses) {
        Path store = dir.resolve(name + ".p12");
        keytool(
                store,
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "30",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=IP:127.0.0.1,DNS:localhost"
                        + addresses.stream().map(a -> ",IP:" + a).collect(Collectors.joining()));
        keytool(
                store,
                "-exportcert",
                "-rfc",
                "-alias",
                name,
                "-file",
                certificate(store).toString());
        return store;
    }

    /** The PEM certificate beside a store {@link #keyStore} made. */
    public static Path certificate(Path keyStore) {
        String file = keyStore.getFileName().toString();
        return keyStore.resolveSibling(file.substring(0, file.length() - ".p12".length()) + ".crt");
    }

    /** A store {@code <dir>/<name>.p12} trusting the certificates of these key stores. */
    public static Path trustStore(Path dir, String name, Path... trusted) {
        return trustStoreOfCertificates(
                dir,
                name,
                Arrays.stream(trusted).map(TestCertificates::certificate).toArray(Path[]::new));
    }

    /** A store {@code <dir>/<name>.p12} trusting these PEM certificates (a server's own, say). */
    public static Path trustStoreOfCertificates(Path dir, String name, Path... certificates) {
        Path store = dir.resolve(name + ".p12");
        for (Path certificate : certificates) {
            keytool(
                    store,
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    certificate.getFileName().toString(),
                    "-file",
                    certificate.toString());
        }
        return store;
    }

    /**
     * The JDK's TLS context presenting the key of {@code keyStore} (a client of mutual TLS) and
     * trusting the certificates of {@code trustStore}, both stores made here.
     */
    public static SSLContext sslContext(Path keyStore, Path trustStore) {
        try {
            KeyManagerFactory keys =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore), PASSWORD.toCharArray());
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(trustStore));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(
                    "cannot read the stores " + keyStore + ", " + trustStore, e);
        }
    }

    private static KeyStore load(Path store) throws GeneralSecurityException, IOException {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD.toCharArray());
        }
        return keyStore;
    }

    /** Runs keytool with {@code arguments} on the PKCS12 store {@code store}. */
    private static void keytool(Path store, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        command.addAll(
                List.of(
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass",
                        PASSWORD));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + arguments[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run keytool: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        }
    }
}
