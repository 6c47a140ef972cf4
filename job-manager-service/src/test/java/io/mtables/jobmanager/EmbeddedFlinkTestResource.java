package io.mtables.jobmanager;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A clean data directory for the job manager under test, and no embedded Flink cluster left behind:
 * the service leaves its cluster running on purpose (jobs outlive restarts), so the tests stop it
 * by its pid file.
 */
public class EmbeddedFlinkTestResource implements QuarkusTestResourceLifecycleManager {

    static final Path DATA = Path.of("target/mt-data").toAbsolutePath();

    /**
     * The databases of this application start's tables: the job manager under test runs only those,
     * not the tables earlier runs (or the other test profile) left on the shared broker.
     */
    static volatile String runPrefix;

    @Override
    public Map<String, String> start() {
        stopCluster();
        deleteRecursively(DATA);
        runPrefix = "jm_it_" + UUID.randomUUID().toString().substring(0, 6) + "_";
        return Map.of(
                "mt.data-dir",
                DATA.toString(),
                "mt.jobs.include",
                "default_catalog\\." + runPrefix + ".*");
    }

    @Override
    public void stop() {
        stopCluster();
    }

    /** Kills the embedded cluster the service started, if any, and waits for it to end. */
    static void stopCluster() {
        Path pidFile = DATA.resolve("flink/cluster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            ProcessHandle.of(pid)
                    .ifPresent(
                            process -> {
                                process.destroyForcibly();
                                process.onExit().join();
                            });
            Files.delete(pidFile);
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException(
                    "cannot stop the embedded Flink cluster of the tests: " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new IllegalStateException("cannot clean " + root, e);
        }
    }
}
