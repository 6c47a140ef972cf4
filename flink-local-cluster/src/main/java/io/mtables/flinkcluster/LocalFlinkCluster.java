package io.mtables.flinkcluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * A whole Flink cluster in one JVM (Flink's MiniCluster: a job manager, one task manager and the
 * REST endpoint on a fixed port), with the connectors, formats and Paimon on its class path. It is
 * the "embedded" Flink of job-manager-service, run as a process of its own so that jobs outlive a
 * restart of the service; jobs reach it exactly as they reach a remote session cluster, through its
 * REST port. Tests also use it as that remote cluster.
 *
 * <p>Arguments: {@code <rest-port> <data-dir> [task-slots]}; further Flink settings in {@link
 * FlinkProperties} and Flink's plugins (the S3 file system) in {@code FLINK_PLUGINS_DIR}. Stops on
 * SIGTERM.
 */
public final class LocalFlinkCluster {

    private LocalFlinkCluster() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LocalFlinkCluster <rest-port> <data-dir> [task-slots]");
            System.exit(2);
        }
        configureLogging();
        int port = Integer.parseInt(args[0]);
        Path data = Path.of(args[1]).toAbsolutePath();
        int slots = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        Files.createDirectories(data.resolve("checkpoints"));
        Files.createDirectories(data.resolve("savepoints"));

        Configuration configuration = configuration(port, data, slots);
        configuration.addAll(Configuration.fromMap(FlinkProperties.fromEnvironment()));
        // A MiniCluster does not load Flink's file-system plugins itself (Flink's entry points do):
        // the S3 file system of checkpoints and savepoints on an object store is one
        // (FLINK_PLUGINS_DIR).
        FileSystem.initialize(
                configuration, PluginUtils.createPluginManagerFromRootFolder(configuration));
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(configuration)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        System.out.println(
                "Flink REST endpoint on http://127.0.0.1:"
                        + port
                        + " ("
                        + slots
                        + " task slots), data in "
                        + data);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        cluster.close();
                                    } catch (Exception e) {
                                        System.err.println("stopping Flink: " + e);
                                    } finally {
                                        stopped.countDown();
                                    }
                                },
                                "flink-local-cluster-stop"));
        stopped.await();
    }

    /**
     * Kept: java.util.logging holds its loggers weakly, and a collected logger forgets its level.
     */
    private static final List<Logger> CONFIGURED = new ArrayList<>();

    /**
     * Logging to standard error (the process's log file) at INFO, some chatty libraries at WARNING.
     * Needed before any library initialises: on job-manager-service's class path SLF4J goes to
     * JBoss LogManager, whose start-up configuration from Quarkus sets the root level to ALL and
     * queues every record for a Quarkus that never starts here. Profiled: Parquet's writer then
     * formats a DEBUG message for every value it writes, and Paimon writes ran about 4 times
     * slower. Times to the millisecond: a job's steps on the cluster (submitted, running, its tasks
     * deployed) are tens of ms apart (docs/benchmarks.md, control plane).
     */
    static void configureLogging() {
        System.setProperty(
                "java.util.logging.SimpleFormatter.format",
                "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setFormatter(new SimpleFormatter());
        console.setLevel(Level.ALL);
        root.addHandler(console);
        root.setLevel(Level.INFO);
        CONFIGURED.add(root);
        for (String chatty :
                List.of(
                        "org.apache.kafka",
                        "org.apache.paimon",
                        "org.apache.flink.runtime.checkpoint",
                        "org.apache.flink.runtime.source")) {
            Logger logger = Logger.getLogger(chatty);
            logger.setLevel(Level.WARNING);
            CONFIGURED.add(logger);
        }
    }

    static Configuration configuration(int port, Path data, int slots) {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, port);
        // Jobs come from job-manager-service alone: no jar uploads, no cancel button in the UI.
        conf.set(WebOptions.SUBMIT_ENABLE, false);
        conf.set(WebOptions.CANCEL_ENABLE, false);
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        // Small machines: a few hundred MB of managed memory is plenty for our jobs' state.
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("256m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("64m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("64m"));
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                data.resolve("checkpoints").toUri().toString());
        conf.set(
                CheckpointingOptions.SAVEPOINT_DIRECTORY,
                data.resolve("savepoints").toUri().toString());
        // The job manager reads each checkpoint's trigger time over REST to measure a table's lag;
        // Flink caches these statistics for 3 s by default, which would add up to 3 s to the lag.
        conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(500));
        // Job metrics over REST at most 250 ms old (Flink's default: 10 s): a switch-over waits
        // that long after stopping the old job before it trusts the new one's sources to have read
        // everything, and readers wait for the switch. Metrics are fetched only when the REST API
        // is asked for them.
        conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(250));
        // Jobs arrive as job graphs with no jars of their own: their classes are all here.
        conf.setString("classloader.resolve-order", "parent-first");
        // Paimon's shared thread pools keep the context class loader of the job that first used
        // them; once that job ends, Flink closes it, and on an object store every later job's
        // reads through those threads failed ("Trying to access closed classloader"). With no jars
        // of their own, a job's class loader only delegates here, so using it closed is harmless.
        conf.setString("classloader.check-leaked-classloader", "false");
        return conf;
    }
}
