package io.mtables.flinkcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint;
import org.apache.flink.runtime.taskexecutor.TaskManagerRunner;

/**
 * One process of a real Flink session cluster, started with Flink's own entry points: the
 * JobManager ({@link StandaloneSessionClusterEntrypoint}: dispatcher, resource manager, REST
 * endpoint) or a TaskManager ({@link TaskManagerRunner}) that registers with it. Unlike {@link
 * LocalFlinkCluster}, each runs alone and they meet over the network, so TaskManagers can be added
 * to a running cluster (that is how a session cluster grows) and each can run on its own host.
 * Flink's distribution tarball is not what we ship; this class path (connectors, formats, Paimon)
 * is the cluster's lib directory.
 *
 * <p>Arguments:
 *
 * <pre>
 * jobmanager  &lt;host&gt; &lt;rpc-port&gt; &lt;rest-port&gt; &lt;data-dir&gt;
 * taskmanager &lt;jobmanager-host&gt; &lt;rpc-port&gt; &lt;task-slots&gt; &lt;data-dir&gt; [&lt;own-host&gt;]
 * </pre>
 *
 * The process writes its Flink configuration ({@code config.yaml}) under {@code <data-dir>/conf}
 * and keeps its temporary files in {@code <data-dir>/tmp}; no two processes need share a directory.
 * Further settings come from {@link FlinkProperties} (an object store's endpoint and keys, HA),
 * Flink's plugins (the S3 file system) from {@code FLINK_PLUGINS_DIR}, as in Flink's image. Stops
 * on SIGTERM.
 */
public final class FlinkSessionProcess {

    private FlinkSessionProcess() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5 || !(args[0].equals("jobmanager") || args[0].equals("taskmanager"))) {
            System.err.println(
                    "usage: FlinkSessionProcess jobmanager <host> <rpc-port> <rest-port>"
                            + " <data-dir>");
            System.err.println(
                    "       FlinkSessionProcess taskmanager <jobmanager-host> <rpc-port>"
                            + " <task-slots> <data-dir> [<own-host>]");
            System.exit(2);
        }
        LocalFlinkCluster.configureLogging();
        Path data = Path.of(args[4]).toAbsolutePath();
        boolean jobManager = args[0].equals("jobmanager");
        Map<String, String> configuration =
                jobManager
                        ? jobManager(
                                args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), data)
                        : taskManager(
                                args[1],
                                Integer.parseInt(args[2]),
                                Integer.parseInt(args[3]),
                                data,
                                args.length > 5 ? args[5] : args[1]);
        configuration.putAll(FlinkProperties.fromEnvironment());
        Path conf = write(configuration, data.resolve("conf"));
        String[] flinkArgs = {"--configDir", conf.toString()};
        if (jobManager) {
            StandaloneSessionClusterEntrypoint.main(flinkArgs);
        } else {
            TaskManagerRunner.main(flinkArgs);
        }
    }

    /** The JobManager's settings: where TaskManagers and clients reach it. */
    static Map<String, String> jobManager(String host, int rpcPort, int restPort, Path data) {
        Map<String, String> conf = common(data);
        conf.put("jobmanager.rpc.address", host);
        conf.put("jobmanager.rpc.port", String.valueOf(rpcPort));
        conf.put("jobmanager.bind-host", host);
        conf.put("rest.address", host);
        conf.put("rest.bind-address", host);
        conf.put("rest.port", String.valueOf(restPort));
        // Jobs come from job-manager-service alone: no jar uploads, no cancel button in the UI.
        conf.put("web.submit.enable", "false");
        conf.put("web.cancel.enable", "false");
        // The job manager reads each checkpoint's trigger time to measure a table's lag (see
        // LocalFlinkCluster).
        conf.put("rest.cache.checkpoint-statistics.timeout", "500 ms");
        return conf;
    }

    /**
     * A TaskManager's settings: its slots, and its memory stated in full (Flink's start scripts
     * derive these from one process size; started directly, the runner needs each part).
     */
    static Map<String, String> taskManager(
            String jobManagerHost, int rpcPort, int slots, Path data, String ownHost) {
        Map<String, String> conf = common(data);
        conf.put("jobmanager.rpc.address", jobManagerHost);
        conf.put("jobmanager.rpc.port", String.valueOf(rpcPort));
        conf.put("taskmanager.host", ownHost);
        conf.put("taskmanager.bind-host", ownHost);
        conf.put("taskmanager.numberOfTaskSlots", String.valueOf(slots));
        conf.put("taskmanager.cpu.cores", String.valueOf(slots));
        conf.put("taskmanager.memory.task.heap.size", (64 * slots) + "m");
        conf.put("taskmanager.memory.task.off-heap.size", "0m");
        conf.put("taskmanager.memory.managed.size", "256m");
        conf.put("taskmanager.memory.network.min", "64m");
        conf.put("taskmanager.memory.network.max", "64m");
        conf.put("taskmanager.memory.framework.heap.size", "128m");
        conf.put("taskmanager.memory.framework.off-heap.size", "128m");
        conf.put("taskmanager.memory.jvm-metaspace.size", "256m");
        conf.put("taskmanager.memory.jvm-overhead.min", "192m");
        conf.put("taskmanager.memory.jvm-overhead.max", "192m");
        return conf;
    }

    private static Map<String, String> common(Path data) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("io.tmp.dirs", data.resolve("tmp").toString());
        // Jobs arrive as job graphs with no jars of their own: their classes are all on this class
        // path.
        conf.put("classloader.resolve-order", "parent-first");
        // Paimon's shared thread pools keep the class loader of the first job that used them,
        // closed once it ends: harmless for loaders that only delegate here (LocalFlinkCluster).
        conf.put("classloader.check-leaked-classloader", "false");
        return conf;
    }

    private static Path write(Map<String, String> configuration, Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder yaml = new StringBuilder();
        configuration.forEach(
                (key, value) -> yaml.append(key).append(": ").append(value).append('\n'));
        Files.createDirectories(Path.of(configuration.get("io.tmp.dirs")));
        Path file = dir.resolve("config.yaml");
        Files.deleteIfExists(file);
        // Only this user reads it: it may hold an object store's keys.
        Files.createFile(
                file,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, yaml.toString());
        return dir;
    }
}
