package io.mtables.jobmanager.flink;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.configuration.Configuration;

/**
 * The Flink cluster the jobs run on, seen through its REST endpoint: jobs are submitted as SQL from
 * this JVM (compiled here, run there), then watched, stopped with a savepoint or cancelled. Two
 * implementations: {@link EmbeddedFlinkTarget} (a local cluster this service starts and keeps) and
 * {@link RemoteFlinkTarget} (a session cluster someone else runs).
 */
public interface FlinkTarget extends AutoCloseable {

    /** Where the cluster is, for logs and DESCRIBE: "embedded at http://127.0.0.1:8085". */
    String describe();

    /** Flink's web UI as this service reaches it: its REST address over HTTP. */
    String webUrl();

    /** The client settings that make a TableEnvironment submit its jobs to this cluster. */
    Configuration clientConfiguration();

    /**
     * Makes sure the cluster answers: the embedded cluster is started again if it died (its jobs
     * are then restarted from their checkpoints by the job manager); a remote one is only asked.
     */
    void ensureAvailable();

    /**
     * The cluster's task slots now: how many there are, how many are free, how many are spoken for.
     */
    ClusterCapacity capacity();

    /** Every job the cluster knows, running or ended. */
    List<FlinkJob> jobs();

    /** One job, if the cluster knows it. */
    Optional<FlinkJob> job(String jobId);

    /** Why a failed job failed, in Flink's words; empty when it did not fail. */
    Optional<String> failureCause(String jobId);

    /**
     * The job's recently completed checkpoints (Flink keeps the last few in its history), each id
     * with the time it was triggered: every change its sources had read by then is in that
     * checkpoint. Empty when the job has none or the cluster cannot say.
     */
    SortedMap<Long, Instant> completedCheckpoints(String jobId);

    /**
     * How far the job's sources are; empty when one of its sources does not say how much it has yet
     * to read (only some connectors report {@code pendingRecords}: Kafka does) or the cluster
     * cannot say.
     */
    Optional<SourceProgress> sourceProgress(String jobId);

    /**
     * The records the job's sources have read so far ({@code numRecordsOut} of every source
     * operator, summed), whether or not they can say what they have left; empty when the cluster
     * cannot say.
     */
    OptionalLong sourceRecordsRead(String jobId);

    /**
     * How old the job metrics the REST API answers with may be: the cluster's {@code
     * metrics.fetcher.update-interval} (Flink's default, 10 s, when it does not say). A value read
     * later than that after a moment was sampled after it.
     */
    Duration metricsInterval();

    /**
     * How many times Flink restarted the job (its {@code numRestarts} metric); empty when the
     * cluster cannot say.
     */
    OptionalLong restarts(String jobId);

    /**
     * Asks for a checkpoint of a running job now (Flink's {@code POST /jobs/:jobid/checkpoints}),
     * without waiting: the future completes with the checkpoint's id, or fails when Flink could not
     * take one (before all the job's tasks run, it cannot).
     */
    CompletableFuture<Long> triggerCheckpoint(String jobId);

    /**
     * Takes a savepoint of a running streaming job into {@code directory}, the job going on; the
     * savepoint's path. Flink does not tell a job's sinks of it: Paimon commits what the savepoint
     * holds with its next checkpoint, under the savepoint's id (apache/paimon#2058).
     */
    String triggerSavepoint(String jobId, String directory);

    /** Stops a streaming job after a savepoint into {@code directory}; the savepoint's path. */
    String stopWithSavepoint(String jobId, String directory);

    /** Cancels a job without a savepoint, and waits until it has ended. */
    void cancel(String jobId);

    @Override
    void close();
}
