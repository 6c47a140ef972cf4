package io.mtables.jobmanager;

import io.mtables.flinkcluster.LocalFlinkCluster;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * A Flink cluster in a JVM of its own that the job manager did not start: the remote target. It
 * runs {@link LocalFlinkCluster} with the test class path, so it has the connectors and Paimon, as
 * a session cluster prepared for our jobs would.
 */
public class RemoteFlinkTestResource implements QuarkusTestResourceLifecycleManager {

    static final int PORT = 18285;
    static final Path HOME = Path.of("target/remote-flink").toAbsolutePath();
    private Process cluster;

    @Override
    public Map<String, String> start() {
        try {
            Path home = HOME;
            Files.createDirectories(home);
            cluster =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx1g",
                                    "-XX:TieredStopAtLevel=1", // a short life: the quick compiler
                                    "-XX:ReservedCodeCacheSize=240m", // C1 alone reserves only 48
                                    // MB
                                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    LocalFlinkCluster.class.getName(),
                                    String.valueOf(PORT),
                                    home.toString(),
                                    "10")
                            .redirectErrorStream(true)
                            .redirectOutput(home.resolve("cluster.log").toFile())
                            .start();
            HttpClient http = HttpClient.newHttpClient();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .failFast(
                            "the remote Flink cluster of the tests exited; see "
                                    + home.resolve("cluster.log"),
                            () -> !cluster.isAlive())
                    .until(
                            () -> {
                                var overview =
                                        http.send(
                                                HttpRequest.newBuilder(
                                                                URI.create(
                                                                        "http://127.0.0.1:"
                                                                                + PORT
                                                                                + "/overview"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString());
                                return overview.statusCode() == 200
                                        && !overview.body().contains("\"taskmanagers\":0");
                            });
            return Map.of(
                    "mt.flink.target", "remote", "mt.flink.rest-address", "127.0.0.1:" + PORT);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the remote Flink cluster of the tests: " + e.getMessage(), e);
        }
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.destroyForcibly();
            cluster.onExit().join();
        }
    }
}
