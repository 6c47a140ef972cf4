package io.mtables.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A CA of a test run's own and a server certificate for one host's address that it signed, made by
 * openssl as bin/postgres makes the machine's: {@code ca.crt}, {@code server.crt} and {@code
 * server.key} (PEM) in a directory. Clients trust {@code ca.crt} and check the server's address
 * against the certificate (verify-full). PEM, not keytool's PKCS12 stores ({@code
 * io.mtables.testing.tls.TestCertificates}): PostgreSQL reads its key from a PEM file only.
 */
final class HostCertificates {

    private final Path dir;

    private HostCertificates(Path dir) {
        this.dir = dir;
    }

    /** Makes the CA and a certificate for {@code address} (an IP address) in {@code dir}. */
    static HostCertificates issue(Path dir, String address) throws IOException {
        Files.createDirectories(dir);
        HostCertificates made = new HostCertificates(dir);
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:" + address + "\n");
        made.openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=mtables test CA",
                "-keyout",
                made.file("ca.key"),
                "-out",
                made.ca());
        made.openssl(
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=" + address,
                "-keyout",
                made.key(),
                "-out",
                made.file("server.csr"));
        made.openssl(
                "x509",
                "-req",
                "-in",
                made.file("server.csr"),
                "-CA",
                made.ca(),
                "-CAkey",
                made.file("ca.key"),
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                made.file("san.ext"),
                "-out",
                made.certificate());
        return made;
    }

    Path dir() {
        return dir;
    }

    /** The CA's certificate, for clients to trust. */
    String ca() {
        return file("ca.crt");
    }

    /** The server's certificate. */
    String certificate() {
        return file("server.crt");
    }

    /** The server's private key. */
    String key() {
        return file("server.key");
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private void openssl(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }
}
