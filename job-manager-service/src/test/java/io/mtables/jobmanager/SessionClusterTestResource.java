package io.mtables.jobmanager;

import io.mtables.flinkcluster.FlinkSessionProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * A real Flink session cluster started with Flink's own entry points ({@link FlinkSessionProcess}):
 * a JobManager and one TaskManager of {@link #FIRST_SLOTS} slots, each a process with a directory
 * of its own. Tests add TaskManagers with {@link #startTaskManager}.
 */
public class SessionClusterTestResource implements QuarkusTestResourceLifecycleManager {

    static final String HOST = "127.0.0.1";
    static final int RPC_PORT = 18623;
    static final int REST_PORT = 18685;
    static final int FIRST_SLOTS = 2;
    static final Path HOME = Path.of("target/session-cluster").toAbsolutePath();
    private final List<Process> processes = new ArrayList<>();

    @Override
    public Map<String, String> start() {
        deleteRecursively(HOME);
        processes.add(
                start(
                        "jobmanager",
                        List.of(
                                "jobmanager",
                                HOST,
                                String.valueOf(RPC_PORT),
                                String.valueOf(REST_PORT),
                                HOME.resolve("jobmanager").toString())));
        processes.add(startTaskManager("taskmanager-1", FIRST_SLOTS));
        awaitTaskManagers(1);
        return Map.of("mt.flink.target", "remote", "mt.flink.rest-address", HOST + ":" + REST_PORT);
    }

    @Override
    public void stop() {
        processes.forEach(SessionClusterTestResource::kill);
    }

    /** Starts one more TaskManager that registers with the JobManager; the caller stops it. */
    static Process startTaskManager(String name, int slots) {
        return start(
                name,
                List.of(
                        "taskmanager",
                        HOST,
                        String.valueOf(RPC_PORT),
                        String.valueOf(slots),
                        HOME.resolve(name).toString()));
    }

    /** Waits until the JobManager has this many TaskManagers registered. */
    static void awaitTaskManagers(int count) {
        HttpClient http = HttpClient.newHttpClient();
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(
                        () -> {
                            var overview =
                                    http.send(
                                            HttpRequest.newBuilder(
                                                            URI.create(
                                                                    "http://"
                                                                            + HOST
                                                                            + ":"
                                                                            + REST_PORT
                                                                            + "/overview"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString());
                            return overview.statusCode() == 200
                                    && overview.body().contains("\"taskmanagers\":" + count + ",");
                        });
    }

    static void kill(Process process) {
        process.destroyForcibly();
        process.onExit().join();
    }

    private static Process start(String name, List<String> arguments) {
        try {
            Files.createDirectories(HOME);
            List<String> command =
                    new ArrayList<>(
                            List.of(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx768m",
                                    "-XX:TieredStopAtLevel=1", // a short life: the quick compiler
                                    "-XX:ReservedCodeCacheSize=240m", // C1 alone reserves only 48
                                    // MB
                                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    FlinkSessionProcess.class.getName()));
            command.addAll(arguments);
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(HOME.resolve(name + ".log").toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot start the "
                            + name
                            + " of the tests' session cluster: "
                            + e.getMessage(),
                    e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new IllegalStateException("cannot clean " + root, e);
        }
    }
}
