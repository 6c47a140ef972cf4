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
 * and the role and database of {@code bin/postgres} (mt / mt). The server runs as the machine's
 * postgres user, which must own its directory, so it lives under {@code /tmp} rather than a
 * checkout that may be private to root.
 */
final class HostedPostgres implements AutoCloseable {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    static final int PORT = 5432;

    private final NetworkHosts.Host host;
    private final Path home;
    private Process server;

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
        postgres.server =
                new ProcessBuilder(
                                host.command(
                                        asPostgres(
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
                                                "fsync=off")))
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

    /** The oracle's connection to this server, as user mt. */
    Postgres connection() {
        return new Postgres("jdbc:postgresql://" + host.address() + ":" + PORT + "/mt", "mt", "mt");
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
        Files.writeString(
                home.resolve("data/pg_hba.conf"),
                "host all all "
                        + subnet
                        + " scram-sha-256\nhost replication all "
                        + subnet
                        + " scram-sha-256\n",
                StandardOpenOption.APPEND);
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
