package io.mtables.system;

import io.mtables.oracle.Postgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A PostgreSQL server of its own on one of {@link NetworkHosts}: a new cluster (initdb) in a
 * directory of its own, listening on the host's address, with logical replication for the capture
 * and the role and database of {@code bin/postgres} (mt / mt). Clients off its host connect over
 * TLS only, with a certificate for its address that a CA of its own signed ({@link #caCertificate},
 * for sslmode=verify-full). The server runs as the machine's postgres user, which must own its
 * directory, so it lives under {@code /tmp} rather than a checkout that may be private to root.
 */
final class HostedPostgres implements AutoCloseable {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    static final int PORT = 5432;

    private final NetworkHosts.Host host;
    private final Path home;
    private Process server;
    private HostCertificates certificates;

    private HostedPostgres(NetworkHosts.Host host, Path home) {
        this.host = host;
        this.home = home;
    }

    static HostedPostgres start(NetworkHosts.Host host) throws IOException, InterruptedException {
        if (!Files.isExecutable(BIN.resolve("postgres"))) {
            throw new IllegalStateException(
                    BIN
                            + "/postgres is missing: bin/postgres installs PostgreSQL 15 (bin/test"
                            + " runs it first)");
        }
        Path home = Files.createTempDirectory("mt-distributed-postgres-");
        run(List.of("chown", "postgres:postgres", home.toString()));
        HostedPostgres postgres = new HostedPostgres(host, home);
        postgres.initialize();
        postgres.makeCertificates();
        postgres.server =
                new ProcessBuilder(host.command(asPostgres(postgres.serverCommand())))
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve("server.log").toFile())
                        .start();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> {
                            if (!postgres.server.isAlive()) {
                                throw new IllegalStateException(
                                        "PostgreSQL on "
                                                + host.address()
                                                + " exited; see "
                                                + home.resolve("server.log"));
                            }
                            return exitCode(
                                            List.of(
                                                    BIN.resolve("pg_isready").toString(),
                                                    "-q",
                                                    "-h",
                                                    host.address(),
                                                    "-p",
                                                    String.valueOf(PORT)))
                                    == 0;
                        });
        run(
                asPostgres(
                        "psql",
                        "-X",
                        "-q",
                        "-v",
                        "ON_ERROR_STOP=1",
                        "-h",
                        home.toString(),
                        "-p",
                        String.valueOf(PORT),
                        "-d",
                        "postgres",
                        "-c",
                        "CREATE ROLE mt WITH LOGIN REPLICATION PASSWORD 'mt'",
                        "-c",
                        "CREATE DATABASE mt OWNER mt"));
        return postgres;
    }

    /** The server, on the host's address, with logical replication, TLS and its certificate. */
    private String[] serverCommand() {
        return new String[] {
            BIN.resolve("postgres").toString(),
            "-D",
            home.resolve("data").toString(),
            "-c",
            "listen_addresses=" + host.address(),
            "-c",
            "port=" + PORT,
            "-c",
            "unix_socket_directories=" + home,
            "-c",
            "wal_level=logical",
            "-c",
            "max_replication_slots=10",
            "-c",
            "max_wal_senders=10",
            "-c",
            "fsync=off",
            "-c",
            "ssl=on",
            "-c",
            "ssl_cert_file=" + certificates.certificate(),
            "-c",
            "ssl_key_file=" + certificates.key()
        };
    }

    /** The oracle's connection to this server, as user mt, over TLS that checks the server. */
    Postgres connection() {
        return new Postgres(
                "jdbc:postgresql://"
                        + host.address()
                        + ":"
                        + PORT
                        + "/mt?sslmode=verify-full&sslrootcert="
                        + caCertificate(),
                "mt",
                "mt");
    }

    /** A connection as user mt with {@code sslmode} (disable: in the clear). */
    Postgres connection(String sslmode) {
        return new Postgres(
                "jdbc:postgresql://" + host.address() + ":" + PORT + "/mt?sslmode=" + sslmode,
                "mt",
                "mt");
    }

    /** The CA that signed the server's certificate (PEM). */
    String caCertificate() {
        return certificates.ca();
    }

    String address() {
        return host.address();
    }

    Path home() {
        return home;
    }

    long pid() {
        return server.pid();
    }

    private void initialize() throws IOException, InterruptedException {
        run(
                asPostgres(
                        BIN.resolve("initdb").toString(),
                        "-D",
                        home.resolve("data").toString(),
                        "-U",
                        "postgres",
                        "--auth-local=trust",
                        "--auth-host=scram-sha-256",
                        "--no-sync",
                        "-E",
                        "UTF8"));
        String subnet = host.address().substring(0, host.address().lastIndexOf('.')) + ".0/24";
        // TLS only from the network: a client in the clear finds no entry and is refused.
        Files.writeString(
                home.resolve("data/pg_hba.conf"),
                "hostssl all all "
                        + subnet
                        + " scram-sha-256\nhostssl replication all "
                        + subnet
                        + " scram-sha-256\n",
                StandardOpenOption.APPEND);
    }

    /**
     * The server's certificate for its address and the CA that signed it; the key readable by the
     * postgres user alone.
     */
    private void makeCertificates() throws IOException, InterruptedException {
        certificates = HostCertificates.issue(home.resolve("tls"), host.address());
        run(List.of("chown", "-R", "postgres:postgres", certificates.dir().toString()));
        run(List.of("chmod", "600", certificates.key()));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroy(); // SIGTERM: a smart shutdown, the services' connections are gone by
            // now
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
        try (Stream<Path> paths = Files.walk(home)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    /**
     * {@code command} as the postgres user; setpriv replaces itself with it, so its pid is the
     * server's.
     */
    private static List<String> asPostgres(String... command) {
        List<String> asUser =
                new ArrayList<>(
                        List.of(
                                "setpriv",
                                "--reuid=postgres",
                                "--regid=postgres",
                                "--init-groups"));
        asUser.addAll(List.of(command));
        return asUser;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output =
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static int exitCode(List<String> command) throws IOException, InterruptedException {
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        return process.waitFor(10, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
