package io.mtables.jobmanager.flink;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.configuration.Configuration;

/**
 * The default target: a local Flink cluster on this machine, started by this service when none
 * answers on the configured port and reached through its REST endpoint like any other cluster (its
 * web UI is on the same port). It outlives the service, so running jobs survive a restart; stop it
 * with {@code bin/run stop} or by its pid file.
 */
public class EmbeddedFlinkTarget implements FlinkTarget {

    private final int port;
    private final Path dataDir;
    private final int taskSlots;
    private final String heap;
    private final List<String> jvmOptions;
    private final Map<String, String> clusterSettings;
    private final RemoteFlinkTarget rest;

    /**
     * Set as soon as this JVM begins to stop: a cluster stopped together with the service (SIGTERM
     * to both) must not be started again by a poll that runs while the service shuts down, or it
     * outlives everything as an orphan.
     */
    private volatile boolean stopping;

    /**
     * @param jvmOptions JVM options of the cluster's, after those it always has
     * @param clusterSettings Flink settings of the cluster itself (its S3 file system's endpoint
     *     and keys)
     */
    public EmbeddedFlinkTarget(
            int port,
            Path dataDir,
            int taskSlots,
            String heap,
            List<String> jvmOptions,
            Map<String, String> clusterSettings) {
        this.port = port;
        this.dataDir = dataDir;
        this.taskSlots = taskSlots;
        this.heap = heap;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.clusterSettings = Map.copyOf(clusterSettings);
        LocalClusterProcess.ensureRunning(
                port, dataDir, taskSlots, heap, this.jvmOptions, this.clusterSettings);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> stopping = true, "embedded-flink-no-restart"));
        // Its class path is ours: nothing to ship with the jobs.
        this.rest = new RemoteFlinkTarget("127.0.0.1", port, List.of(), Optional.empty());
    }

    @Override
    public String describe() {
        return "embedded at http://127.0.0.1:" + port;
    }

    @Override
    public String webUrl() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public Configuration clientConfiguration() {
        return rest.clientConfiguration();
    }

    @Override
    public void ensureAvailable() {
        if (stopping) {
            return;
        }
        LocalClusterProcess.ensureRunning(
                port, dataDir, taskSlots, heap, jvmOptions, clusterSettings);
    }

    @Override
    public ClusterCapacity capacity() {
        return rest.capacity();
    }

    @Override
    public List<FlinkJob> jobs() {
        return rest.jobs();
    }

    @Override
    public Optional<FlinkJob> job(String jobId) {
        return rest.job(jobId);
    }

    @Override
    public Optional<String> failureCause(String jobId) {
        return rest.failureCause(jobId);
    }

    @Override
    public SortedMap<Long, Instant> completedCheckpoints(String jobId) {
        return rest.completedCheckpoints(jobId);
    }

    @Override
    public Optional<SourceProgress> sourceProgress(String jobId) {
        return rest.sourceProgress(jobId);
    }

    @Override
    public OptionalLong sourceRecordsRead(String jobId) {
        return rest.sourceRecordsRead(jobId);
    }

    @Override
    public OptionalLong restarts(String jobId) {
        return rest.restarts(jobId);
    }

    @Override
    public Duration metricsInterval() {
        return rest.metricsInterval();
    }

    @Override
    public CompletableFuture<Long> triggerCheckpoint(String jobId) {
        return rest.triggerCheckpoint(jobId);
    }

    @Override
    public String triggerSavepoint(String jobId, String directory) {
        return rest.triggerSavepoint(jobId, directory);
    }

    @Override
    public String stopWithSavepoint(String jobId, String directory) {
        return rest.stopWithSavepoint(jobId, directory);
    }

    @Override
    public void cancel(String jobId) {
        rest.cancel(jobId);
    }

    @Override
    public void close() {
        stopping = true;
        rest.close();
    }
}
