package io.mtables.jobmanager.flink;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.util.SerializedThrowable;

/**
 * A Flink session cluster reached at its REST address, with Flink's own REST client. Jobs are
 * compiled in this JVM and shipped as job graphs; a cluster that lacks our connectors and Paimon
 * gets them as {@code pipeline.jars}.
 */
public class RemoteFlinkTarget implements FlinkTarget {

    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Listing the jobs is the control loop's look: 10 s, as the other REST reads ({@link
     * FlinkRestReads}). At 60 s a listing sent as the cluster was killed held the control thread a
     * minute, so the cluster was started again only then (ChaosIT, 65 s against 30 s).
     */
    private static final long LIST_TIMEOUT_SECONDS = 10;

    private static final int SAVEPOINT_ATTEMPTS = 4;

    private final String host;
    private final int port;
    private final List<String> pipelineJars;
    private final Optional<FlinkRestTls> tls;
    private final RestClusterClient<StandaloneClusterId> client;

    private final FlinkRestReads reads;

    public RemoteFlinkTarget(
            String host, int port, List<String> pipelineJars, Optional<FlinkRestTls> tls) {
        this.host = host;
        this.port = port;
        this.pipelineJars = List.copyOf(pipelineJars);
        this.tls = tls;
        HttpClient.Builder http = HttpClient.newBuilder();
        tls.ifPresent(settings -> http.sslContext(settings.sslContext()));
        this.reads = new FlinkRestReads(url(host, port, tls), http.build());
        try {
            this.client =
                    new RestClusterClient<>(restConfiguration(), StandaloneClusterId.getInstance());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot create a REST client for Flink at " + host + ":" + port, e);
        }
    }

    /** Parses {@code host:port}, saying what is wrong with a bad address. */
    public static RemoteFlinkTarget at(
            String address, List<String> pipelineJars, Optional<FlinkRestTls> tls) {
        int colon = address == null ? -1 : address.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(
                    "mt.flink.rest-address must be host:port, such as flink-jobmanager:8081; was '"
                            + address
                            + "'");
        }
        try {
            return new RemoteFlinkTarget(
                    address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1)),
                    pipelineJars,
                    tls);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "mt.flink.rest-address must end with a port number; was '" + address + "'");
        }
    }

    @Override
    public String describe() {
        return "remote at " + webUrl();
    }

    @Override
    public String webUrl() {
        return url(host, port, tls);
    }

    private static String url(String host, int port, Optional<FlinkRestTls> tls) {
        return (tls.isPresent() ? "https://" : "http://") + host + ":" + port;
    }

    @Override
    public Configuration clientConfiguration() {
        Configuration configuration = restConfiguration();
        configuration.set(DeploymentOptions.TARGET, "remote");
        if (!pipelineJars.isEmpty()) {
            configuration.set(PipelineOptions.JARS, pipelineJars);
        }
        return configuration;
    }

    private Configuration restConfiguration() {
        Configuration configuration = new Configuration();
        configuration.set(RestOptions.ADDRESS, host);
        configuration.set(RestOptions.PORT, port);
        tls.ifPresent(settings -> settings.applyTo(configuration));
        return configuration;
    }

    @Override
    public void ensureAvailable() {
        jobs(); // throws FlinkUnavailableException with the address when it does not answer
    }

    @Override
    public ClusterCapacity capacity() {
        return reads.capacity();
    }

    @Override
    public Duration metricsInterval() {
        return reads.metricsInterval();
    }

    @Override
    public Optional<String> failureCause(String jobId) {
        return reads.failureCause(jobId);
    }

    @Override
    public SortedMap<Long, Instant> completedCheckpoints(String jobId) {
        return reads.completedCheckpoints(jobId);
    }

    @Override
    public Optional<SourceProgress> sourceProgress(String jobId) {
        return reads.sourceProgress(jobId);
    }

    @Override
    public OptionalLong sourceRecordsRead(String jobId) {
        return reads.sourceRecordsRead(jobId);
    }

    @Override
    public OptionalLong restarts(String jobId) {
        return reads.restarts(jobId);
    }

    @Override
    public List<FlinkJob> jobs() {
        List<FlinkJob> jobs = new ArrayList<>();
        for (var status : await(client.listJobs(), "list the jobs", LIST_TIMEOUT_SECONDS)) {
            jobs.add(
                    new FlinkJob(
                            status.getJobId().toHexString(),
                            status.getJobName(),
                            status.getJobState().name()));
        }
        return jobs;
    }

    @Override
    public Optional<FlinkJob> job(String jobId) {
        return jobs().stream().filter(job -> job.id().equals(jobId)).findFirst();
    }

    @Override
    public CompletableFuture<Long> triggerCheckpoint(String jobId) {
        // Asked only once every task runs: Flink refuses before, and its client cannot read that
        // refusal (it asks for the result again every 3 s, for a minute, logging an error each
        // time), so the checkpoint asked for a job just started came a minute late or never.
        if (!reads.allTasksRunning(jobId).orElse(false)) {
            return CompletableFuture.failedFuture(
                    new FlinkUnavailableException(
                            "not every task of job " + jobId + " runs yet: no checkpoint asked",
                            null));
        }
        return client.triggerCheckpoint(JobID.fromHexString(jobId), CheckpointType.CONFIGURED);
    }

    /**
     * Stops a job after a savepoint. Flink refuses while some task is not running yet (a job just
     * started or restarting), so this tries a few times before giving up.
     */
    @Override
    public String triggerSavepoint(String jobId, String directory) {
        awaitAllTasksRunning(jobId);
        FlinkUnavailableException last = null;
        for (int attempt = 1; attempt <= SAVEPOINT_ATTEMPTS; attempt++) {
            try {
                return await(
                        client.triggerSavepoint(
                                JobID.fromHexString(jobId),
                                directory,
                                SavepointFormatType.CANONICAL),
                        "take a savepoint of job " + jobId);
            } catch (FlinkUnavailableException e) {
                last = e;
                sleep(Duration.ofSeconds(2L * attempt));
            }
        }
        throw last;
    }

    @Override
    public String stopWithSavepoint(String jobId, String directory) {
        awaitAllTasksRunning(jobId);
        FlinkUnavailableException last = null;
        for (int attempt = 1; attempt <= SAVEPOINT_ATTEMPTS; attempt++) {
            try {
                return await(
                        client.stopWithSavepoint(
                                JobID.fromHexString(jobId),
                                false,
                                directory,
                                SavepointFormatType.CANONICAL),
                        "stop job " + jobId + " with a savepoint");
            } catch (FlinkUnavailableException e) {
                last = e;
                sleep(Duration.ofSeconds(2L * attempt));
            }
        }
        throw last;
    }

    /**
     * Waits (up to a minute) until every task of a job runs: before that, Flink refuses savepoints.
     */
    private void awaitAllTasksRunning(String jobId) {
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            // Unanswered: the stop itself will say what is wrong.
            if (reads.allTasksRunningOrNeverWill(jobId).orElse(true)) {
                return;
            }
            sleep(Duration.ofMillis(250));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Cancels a job and waits (up to a minute) until it has ended: its sink writes nothing after
     * this.
     */
    @Override
    public void cancel(String jobId) {
        await(client.cancel(JobID.fromHexString(jobId)), "cancel job " + jobId);
        Instant deadline = Instant.now().plusSeconds(60);
        while (job(jobId).map(job -> !job.ended()).orElse(false)) {
            if (Instant.now().isAfter(deadline)) {
                throw new FlinkUnavailableException(
                        "job " + jobId + " did not end within a minute of its cancellation", null);
            }
            sleep(Duration.ofMillis(200));
        }
    }

    @Override
    public void close() {
        client.close();
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        return await(future, what, TIMEOUT_SECONDS);
    }

    private <T> T await(CompletableFuture<T> future, String what, long timeoutSeconds) {
        try {
            return future.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkUnavailableException("interrupted while trying to " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new FlinkUnavailableException(
                    "cannot " + what + " on Flink " + describe() + ": " + rootCause(e), e);
        }
    }

    static String rootCause(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        if (deepest instanceof SerializedThrowable serialized) {
            String original = serialized.getOriginalErrorClassName();
            return original.substring(original.lastIndexOf('.') + 1)
                    + ": "
                    + serialized.getMessage();
        }
        return deepest.getClass().getSimpleName() + ": " + deepest.getMessage();
    }
}
