package io.mtables.system;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One process of a Flink session cluster on one of {@link NetworkHosts}: the JobManager or a
 * TaskManager, started with Flink's own entry points through {@code FlinkSessionProcess}. Its lib
 * directory is the packaged job-manager-service's (Flink, the connectors, Paimon: what the jobs'
 * classes need), its plugins that service's {@code lib/flink-plugins} (the S3 file system), as a
 * Flink distribution installed on each host would have them; its settings (the object store's
 * endpoint) arrive in {@code FLINK_PROPERTIES}, the store's keys in the environment variables of
 * the AWS SDK's default chain, as a Kubernetes Secret gives them; its files stay in a directory of
 * its own.
 */
final class HostedFlinkProcess implements AutoCloseable {

    static final int RPC_PORT = 6123;
    static final int REST_PORT = 8081;
    private static final Path APP =
            Path.of("../job-manager-service/target/quarkus-app").toAbsolutePath().normalize();

    private final String role;
    private final NetworkHosts.Host host;
    private final Process process;

    private HostedFlinkProcess(String role, NetworkHosts.Host host, Process process) {
        this.role = role;
        this.host = host;
        this.process = process;
    }

    static HostedFlinkProcess jobManager(
            NetworkHosts.Host host,
            Path home,
            Map<String, String> settings,
            Map<String, String> environment,
            List<String> javaOptions)
            throws IOException {
        return start(
                "jobmanager",
                host,
                home,
                settings,
                environment,
                javaOptions,
                List.of(host.address(), String.valueOf(RPC_PORT), String.valueOf(REST_PORT)));
    }

    static HostedFlinkProcess taskManager(
            NetworkHosts.Host host,
            NetworkHosts.Host jobManager,
            int slots,
            Path home,
            Map<String, String> settings,
            Map<String, String> environment,
            List<String> javaOptions)
            throws IOException {
        return start(
                "taskmanager",
                host,
                home,
                settings,
                environment,
                javaOptions,
                List.of(jobManager.address(), String.valueOf(RPC_PORT), String.valueOf(slots)),
                host.address());
    }

    private static HostedFlinkProcess start(
            String role,
            NetworkHosts.Host host,
            Path home,
            Map<String, String> settings,
            Map<String, String> environment,
            List<String> javaOptions,
            List<String> arguments,
            String... more)
            throws IOException {
        if (!Files.isDirectory(APP.resolve("lib/flink-plugins"))) {
            throw new IllegalStateException(
                    APP
                            + "/lib/flink-plugins does not exist: package job-manager-service first"
                            + " (mvn verify builds it before this module)");
        }
        Files.createDirectories(home);
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                role.equals("jobmanager") ? "-Xmx512m" : "-Xmx768m",
                                "-XX:TieredStopAtLevel=1", // a short life: the quick compiler
                                "-XX:ReservedCodeCacheSize=240m", // C1 alone reserves only 48 MB
                                "-Djava.io.tmpdir=" + Files.createDirectories(home.resolve("tmp")),
                                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager"));
        command.addAll(javaOptions);
        command.addAll(
                List.of(
                        "-cp",
                        APP.resolve("lib/boot/*") + File.pathSeparator + APP.resolve("lib/main/*"),
                        "io.mtables.flinkcluster.FlinkSessionProcess",
                        role));
        command.addAll(arguments);
        command.add(home.toString());
        command.addAll(List.of(more));
        ProcessBuilder builder =
                new ProcessBuilder(host.command(command))
                        .directory(home.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve(role + ".log").toFile());
        builder.environment().put("FLINK_PLUGINS_DIR", APP.resolve("lib/flink-plugins").toString());
        // FlinkProperties' format: a line "key: value" per setting (this module does not have Flink
        // on its class path).
        StringBuilder properties = new StringBuilder();
        settings.forEach(
                (key, value) -> properties.append(key).append(": ").append(value).append('\n'));
        builder.environment().put("FLINK_PROPERTIES", properties.toString());
        builder.environment().putAll(environment);
        return new HostedFlinkProcess(role, host, builder.start());
    }

    NetworkHosts.Host host() {
        return host;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Ends it as a crash would (SIGKILL). */
    void kill() {
        process.destroyForcibly();
        process.onExit().join();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return role + " on " + host.address();
    }
}
