package io.mtables.jobmanager.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.ClusterWarmUp;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobWarmUp;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.WarmUps;
import io.mtables.planning.WarmUp;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * The first table's work done once at the job manager's start ({@code mt.warm-up},
 * docs/operations.md), each part on a thread of its own and with environments of its own: a plan
 * that comes meanwhile is compiled at once, beside them, not after them (bin/bench control-plane:
 * queued behind the warm-up, the first table waited 6 s).
 */
final class StartWarmUps {

    private StartWarmUps() {}

    /**
     * Starts the warm-ups: the table's job compiled and its first event's topic looked up ({@link
     * JobWarmUp}); and, on an embedded cluster that had run no job when the service reached it,
     * beside them, the cluster's jobs ({@link ClusterWarmUp}), whose second waits for the first
     * part to end. A user's cluster is not given jobs of ours that no table asked for, and one that
     * ran jobs is warm.
     *
     * @param idle whether no record is being acted on (the repeats and the cluster's second job
     *     wait for it)
     */
    static void start(
            FlinkTarget flink,
            boolean clusterFresh,
            KafkaLog eventsLog,
            JobManagerConfig config,
            Locations locations,
            MeterRegistry registry,
            BooleanSupplier idle) {
        CountDownLatch compilerWarmedUp = new CountDownLatch(1);
        if (clusterFresh) {
            // Beside the compile, not before it: its first job runs for seconds on the cluster,
            // and the first table, compiled meanwhile, found the compiler cold.
            daemon(
                    "job-manager-cluster-warm-up",
                    () ->
                            WarmUps.run(
                                    "cluster",
                                    () -> {
                                        ClusterWarmUp.loadClasses(flink, Duration.ofMinutes(1));
                                        awaitOpen(compilerWarmedUp);
                                        ClusterWarmUp.compileWrites(
                                                flink, Duration.ofMinutes(1), idle);
                                    },
                                    registry));
        }
        daemon(
                "job-manager-warm-up",
                () -> {
                    try {
                        WarmUps.run(
                                "job compiler",
                                () -> {
                                    eventsLog.warmUp();
                                    JobWarmUp.run(
                                            flink,
                                            JobOptions.streaming(
                                                    WarmUp.definition(),
                                                    WarmUp.plan(),
                                                    config,
                                                    locations,
                                                    null),
                                            JobOptions.rewrite(WarmUp.definition(), config),
                                            config.warmUpRepeats(),
                                            idle);
                                },
                                registry);
                    } finally {
                        compilerWarmedUp.countDown();
                    }
                });
    }

    private static void awaitOpen(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while waiting for the compile's warm-up", e);
        }
    }

    /** Flink finds its connectors through the thread's context class loader: this one's. */
    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.setDaemon(true);
        thread.start();
    }
}
