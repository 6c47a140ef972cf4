package io.mtables.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Crashes of what the services stand on, as bin/test started it: the Kafka broker (bin/kafka,
 * killed with SIGKILL, its data kept) and PostgreSQL (an immediate shutdown: no checkpoint, crash
 * recovery at the next start), each started again with its own script after a pause.
 */
final class BackingServiceOutages {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private BackingServiceOutages() {}

    /**
     * Kills the broker bin/test started (its pid file under {@code $MT_RUN_DIR/kafka}), waits
     * {@code down}, and starts it again on the same data.
     */
    static void killBrokerAndStartAgain(Duration down) throws IOException, InterruptedException {
        String runDir = System.getenv("MT_RUN_DIR");
        if (runDir == null) {
            throw new IllegalStateException(
                    "MT_RUN_DIR is not set: the broker to kill is the one bin/test starts");
        }
        Path pidFile = Path.of(runDir, "kafka", "kafka.pid");
        ProcessHandle broker =
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                        .orElseThrow(() -> new IllegalStateException("no broker at " + pidFile));
        broker.destroyForcibly();
        broker.onExit().join();
        Thread.sleep(down.toMillis());
        run(List.of(ROOT.resolve("bin/kafka").toString(), "start"));
    }

    /**
     * Shuts PostgreSQL down in immediate mode (every connection and the capture's replication
     * stream cut, as a crash would), waits {@code down}, and starts it again.
     */
    static void crashPostgresAndStartAgain(Duration down) throws IOException, InterruptedException {
        run(List.of("pg_ctlcluster", "15", "main", "stop", "-m", "immediate"));
        Thread.sleep(down.toMillis());
        run(List.of(ROOT.resolve("bin/postgres").toString(), "start"));
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
        }
    }
}
