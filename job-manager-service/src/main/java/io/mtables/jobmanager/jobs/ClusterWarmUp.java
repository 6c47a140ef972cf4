package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Runs one small bounded job on a fresh embedded cluster, so that the first table's job does not
 * pay for the cluster's first job: the job master's first job graph, the task manager's first task
 * deployment, its network stack and checkpoints (cold, the first table took 2.1 s from submission
 * to Flink's answer and 1.8-2.2 s more to run, the next ones 0.2-0.3 s and 0.4-0.6 s: bin/bench
 * control-plane). A DataStream job of Flink's own classes only (generated numbers, discarded, one
 * checkpoint): it needs no planner to build, so it is on the cluster within a second of the
 * service's start, before the planner's own warm-up competes for the cores.
 */
public final class ClusterWarmUp {

    /** The job's name: not a table's ("mt:<table>:..."), so no table claims it. */
    public static final String JOB_NAME = "mt-warm-up";

    private ClusterWarmUp() {}

    /**
     * Runs the job on {@code target} and waits for it to finish; its checkpoint goes to a scratch
     * directory on this host (the embedded cluster's), deleted after.
     *
     * @throws IllegalStateException when the job fails or takes longer than {@code timeout}
     */
    public static void run(FlinkTarget target, Duration timeout) {
        Path scratch = JobWarmUp.scratch();
        try {
            Configuration configuration = target.clientConfiguration();
            configuration.setString("execution.checkpointing.interval", "200 ms");
            configuration.setString(
                    "execution.checkpointing.dir",
                    scratch.resolve("checkpoints").toUri().toString());
            // Not getExecutionEnvironment: outside a Flink client that starts a local cluster.
            StreamExecutionEnvironment env = new StreamExecutionEnvironment(configuration);
            env.setParallelism(1);
            env.fromSequence(1, 10_000).sinkTo(new DiscardingSink<>());
            JobClient job;
            try {
                job = env.executeAsync(JOB_NAME);
            } catch (Exception e) {
                throw new IllegalStateException("Flink did not take the warm-up job", e);
            }
            try {
                job.getJobExecutionResult().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                job.cancel();
                throw new IllegalStateException("interrupted while the warm-up job ran", e);
            } catch (ExecutionException | TimeoutException e) {
                job.cancel();
                throw new IllegalStateException(
                        "the warm-up job " + job.getJobID() + " failed or took too long", e);
            }
        } finally {
            JobWarmUp.delete(scratch);
        }
    }
}
