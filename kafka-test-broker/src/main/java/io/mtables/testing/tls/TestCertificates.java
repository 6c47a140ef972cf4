package io.mtables.testing.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keys and certificates for the tests' TLS, made by the JDK's {@code keytool} (no crypto of ours):
 * each party a key of its own with a self-signed certificate for 127.0.0.1 and localhost, in a
 * PKCS12 store; the parties it trusts in a PKCS12 store of their certificates.
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
                "SAN=IP:127.0.0.1,DNS:localhost");
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
        Path store = dir.resolve(name + ".p12");
        for (Path keyStore : trusted) {
            keytool(
                    store,
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    keyStore.getFileName().toString(),
                    "-file",
                    certificate(keyStore).toString());
        }
        return store;
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
