package io.mtables.jobmanager.flink;

import io.mtables.flinkcluster.FlinkProperties;
import io.mtables.flinkcluster.LocalFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local Flink cluster ({@link LocalFlinkCluster}) as a process of its own, started with this
 * service's class path. It is left running when the service stops, so that jobs survive a restart
 * of the service; its pid is in {@code <data-dir>/flink/cluster.pid} for whoever stops it ({@code
 * bin/run stop}, the tests).
 */
final class LocalClusterProcess {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LocalClusterProcess() {}

    /**
     * Starts the cluster unless something listens on {@code port} (a busy cluster may answer
     * slowly, and is not started twice); waits until it has slots. {@code settings} reach it in
     * {@code FLINK_PROPERTIES}, out of sight of {@code ps}; Flink's plugins (the S3 file system of
     * checkpoints on an object store) in {@link #pluginsDir()}.
     */
    static void ensureRunning(
            int port,
            Path dataDir,
            int taskSlots,
            String heap,
            List<String> jvmOptions,
            Map<String, String> settings) {
        if (listening(port)) {
            return;
        }
        Path home = dataDir.resolve("flink").toAbsolutePath();
        try {
            Files.createDirectories(home);
            List<String> command =
                    new ArrayList<>(
                            List.of(
                                    javaBinary(),
                                    "-Xmx" + heap,
                                    // Native memory its jobs' codecs and planners freed goes back
                                    // to the system (malloc keeps it otherwise: 20-90 MB a JVM
                                    // here).
                                    "-XX:+UnlockExperimentalVMOptions",
                                    "-XX:TrimNativeHeapInterval=10000",
                                    // G1 lets the young generation grow to 60 % of the heap, and
                                    // its jobs allocate fast: the demo's 6 jobs held 1.2 GB of
                                    // heap over 120 MB live. At most a fifth of it.
                                    "-XX:G1MaxNewSizePercent=20",
                                    // G1 grows the heap by a fifth of what is left of -Xmx at a
                                    // time (116 MB to 740 MB in the 20 s after the demo's jobs
                                    // started), and gives it back only at the end of a marking
                                    // cycle, which a heap this empty rarely starts: grown in
                                    // steps of 2 %, and shrunk at each cycle's end to 30 % free
                                    // (docs/benchmarks.md, memory).
                                    "-XX:G1ExpandByPercentOfAvailable=2",
                                    "-XX:MaxHeapFreeRatio=30",
                                    "-XX:MinHeapFreeRatio=10",
                                    // Idle (no collection for 15 s: no job allocates), a marking
                                    // cycle all the same, so the heap its warm-up and its last
                                    // jobs grew is given back (JEP 346; docs/benchmarks.md,
                                    // memory). Under load young collections keep it from firing.
                                    "-XX:G1PeriodicGCInterval=15000",
                                    "-Djava.io.tmpdir="
                                            + Files.createDirectories(home.resolve("tmp"))));
            command.addAll(jvmOptions);
            // Flink logs through SLF4J; on this class path that is JBoss LogManager (set up by
            // LocalFlinkCluster: cluster.log).
            command.add("-Djava.util.logging.manager=org.jboss.logmanager.LogManager");
            command.addAll(
                    List.of(
                            "-cp",
                            classPath(),
                            LocalFlinkCluster.class.getName(),
                            String.valueOf(port),
                            home.toString(),
                            String.valueOf(taskSlots)));
            ProcessBuilder builder =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(
                                    ProcessBuilder.Redirect.appendTo(
                                            home.resolve("cluster.log").toFile()));
            builder.environment()
                    .put(FlinkProperties.ENVIRONMENT_VARIABLE, FlinkProperties.format(settings));
            pluginsDir()
                    .ifPresent(
                            plugins ->
                                    builder.environment()
                                            .put("FLINK_PLUGINS_DIR", plugins.toString()));
            Process process = builder.start();
            // A cluster outlives this service once it answers (jobs survive restarts), but not a
            // start this JVM gave up or did not live through: no orphan without a pid file.
            Thread unanswered = new Thread(process::destroyForcibly, "flink-cluster-unanswered");
            Runtime.getRuntime().addShutdownHook(unanswered);
            try {
                awaitAnswer(process, port, home);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(unanswered);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs, or has run: nothing to remove
                }
            }
            // Only a cluster that started is recorded: a failed attempt must not hide the real
            // one's pid.
            Files.writeString(home.resolve("cluster.pid"), process.pid() + "\n");
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot start the local Flink cluster in " + home + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns once the cluster answers on {@code port}; kills it and throws when it has not after
     * 90 s, throws when it exited.
     */
    private static void awaitAnswer(Process process, int port, Path home) {
        try {
            Instant deadline = Instant.now().plusSeconds(90);
            while (!answers(port)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "the local Flink cluster exited with "
                                    + process.exitValue()
                                    + "; see "
                                    + home.resolve("cluster.log"));
                }
                if (Instant.now().isAfter(deadline)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(
                            "the local Flink cluster did not answer on port "
                                    + port
                                    + " within 90 s; see "
                                    + home.resolve("cluster.log"));
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while starting the local Flink cluster", e);
        }
    }

    /** Whether anything accepts connections on the port. */
    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    /** Whether a Flink REST endpoint with a task manager answers on {@code port}. */
    static boolean answers(int port) {
        try {
            HttpResponse<String> overview =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + port + "/overview"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return overview.statusCode() == 200 && !overview.body().contains("\"taskmanagers\":0");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * This service's class path, which holds Flink, the connectors and Paimon. In a packaged
     * service ({@code quarkus-run.jar}) the libraries lie beside it in {@code lib/}; in tests and
     * IDEs the JVM's class path has them all.
     */
    static String classPath() {
        String own = System.getProperty("java.class.path");
        String[] entries = own.split(File.pathSeparator);
        if (entries.length == 1 && entries[0].endsWith("quarkus-run.jar")) {
            Path app = Path.of(entries[0]).toAbsolutePath().getParent();
            return app.resolve("lib/boot/*") + File.pathSeparator + app.resolve("lib/main/*");
        }
        return own;
    }

    /**
     * Flink's plugin folders that came with this service: {@code lib/flink-plugins/} beside {@code
     * quarkus-run.jar} when packaged, {@code target/flink-plugins} in the module's tests (both put
     * there by the build); empty when neither exists (then only {@code file:} paths work).
     */
    static Optional<Path> pluginsDir() {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        Path candidate =
                entries.length == 1 && entries[0].endsWith("quarkus-run.jar")
                        ? Path.of(entries[0])
                                .toAbsolutePath()
                                .getParent()
                                .resolve("lib/flink-plugins")
                        : Path.of("target/flink-plugins").toAbsolutePath();
        return Files.isDirectory(candidate) ? Optional.of(candidate) : Optional.empty();
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
