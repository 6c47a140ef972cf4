package io.mtables.jobmanager.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.util.SerializedThrowable;
import org.apache.flink.util.TimeUtils;

/**
 * A Flink session cluster reached at its REST address, with Flink's own REST client. Jobs are
 * compiled in this JVM and shipped as job graphs; a cluster that lacks our connectors and Paimon
 * gets them as {@code pipeline.jars}.
 */
public class RemoteFlinkTarget implements FlinkTarget {

    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Listing the jobs is the control loop's look: as the other REST reads here, 10 s. At 60 s a
     * listing sent as the cluster was killed held the control thread a minute, so the cluster was
     * started again only then (ChaosIT, 65 s against 30 s).
     */
    private static final long LIST_TIMEOUT_SECONDS = 10;

    private static final int SAVEPOINT_ATTEMPTS = 4;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String host;
    private final int port;
    private final List<String> pipelineJars;
    private final RestClusterClient<StandaloneClusterId> client;

    /**
     * Per job, the metric queries of its source vertices, looked up once (see {@link
     * #sourceProgress}).
     */
    private final Map<String, List<String>> sourceMetricQueries = new ConcurrentHashMap<>();

    public RemoteFlinkTarget(String host, int port, List<String> pipelineJars) {
        this.host = host;
        this.port = port;
        this.pipelineJars = List.copyOf(pipelineJars);
        try {
            this.client =
                    new RestClusterClient<>(restConfiguration(), StandaloneClusterId.getInstance());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot create a REST client for Flink at " + host + ":" + port, e);
        }
    }

    /** Parses {@code host:port}, saying what is wrong with a bad address. */
    public static RemoteFlinkTarget at(String address, List<String> pipelineJars) {
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
                    pipelineJars);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "mt.flink.rest-address must end with a port number; was '" + address + "'");
        }
    }

    @Override
    public String describe() {
        return "remote at http://" + host + ":" + port;
    }

    String baseUrl() {
        return "http://" + host + ":" + port;
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
        return configuration;
    }

    @Override
    public void ensureAvailable() {
        jobs(); // throws FlinkUnavailableException with the address when it does not answer
    }

    /**
     * Read over plain HTTP from {@code /overview} (slots of the registered TaskManagers) and {@code
     * /jobs/overview}: a job that is initializing, or whose tasks are all still waiting to be
     * placed, holds no slot yet but will take one, so it counts as waiting.
     */
    @Override
    public ClusterCapacity capacity() {
        var overview = getJson("/overview");
        int waiting = 0;
        for (var job : getJson("/jobs/overview").path("jobs")) {
            String state = job.path("state").asText();
            var tasks = job.path("tasks");
            boolean placed =
                    tasks.path("deploying").asInt()
                                    + tasks.path("initializing").asInt()
                                    + tasks.path("running").asInt()
                            > 0;
            boolean waitingToBePlaced =
                    state.equals("INITIALIZING")
                            || state.equals("CREATED")
                            || (state.equals("RUNNING")
                                    && !placed
                                    && tasks.path("created").asInt()
                                                    + tasks.path("scheduled").asInt()
                                            > 0);
            if (waitingToBePlaced) {
                waiting++;
            }
        }
        return new ClusterCapacity(
                overview.path("slots-total").asInt(),
                overview.path("slots-available").asInt(),
                overview.path("taskmanagers").asInt(),
                waiting);
    }

    /**
     * The cluster's metrics.fetcher.update-interval, asked once (its configuration does not change
     * while it runs).
     */
    @Override
    public Duration metricsInterval() {
        if (metricsInterval == null) {
            Duration interval = MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.defaultValue();
            for (var entry : getJson("/jobmanager/config")) {
                if (entry.path("key")
                        .asText()
                        .equals(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.key())) {
                    interval = TimeUtils.parseDuration(entry.path("value").asText());
                }
            }
            metricsInterval = interval;
        }
        return metricsInterval;
    }

    private volatile Duration metricsInterval;

    private JsonNode getJson(String path) {
        try {
            var response =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(baseUrl() + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new FlinkUnavailableException(
                        "Flink "
                                + describe()
                                + " answered "
                                + response.statusCode()
                                + " to GET "
                                + path,
                        null);
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new FlinkUnavailableException(
                    "cannot GET " + path + " from Flink " + describe() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkUnavailableException(
                    "interrupted while asking Flink " + describe() + " for " + path, e);
        }
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

    /**
     * Read from the job's exception history over plain HTTP: Flink's REST client would deserialize
     * the failure into its own exception classes, which breaks when two class loaders hold them
     * (Quarkus tests).
     */
    @Override
    public Optional<String> failureCause(String jobId) {
        try {
            var response =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    baseUrl()
                                                            + "/jobs/"
                                                            + jobId
                                                            + "/exceptions?maxExceptions=1"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            var entries = JSON.readTree(response.body()).path("exceptionHistory").path("entries");
            if (!entries.isArray() || entries.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(
                    deepestCause(
                            entries.get(0)
                                    .path("stacktrace")
                                    .asText(entries.get(0).path("exceptionName").asText())));
        } catch (IOException e) {
            return Optional.of("the cause could not be read from Flink (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Read from the job's checkpoint statistics over plain HTTP, for the same reason. */
    @Override
    public SortedMap<Long, Instant> completedCheckpoints(String jobId) {
        SortedMap<Long, Instant> completed = new TreeMap<>();
        try {
            var response =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    baseUrl() + "/jobs/" + jobId + "/checkpoints"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return completed;
            }
            var statistics = JSON.readTree(response.body());
            for (var checkpoint : statistics.path("history")) {
                if (checkpoint.path("status").asText().equals("COMPLETED")
                        && !checkpoint.path("is_savepoint").asBoolean(false)) {
                    completed.put(
                            checkpoint.path("id").asLong(),
                            Instant.ofEpochMilli(checkpoint.path("trigger_timestamp").asLong()));
                }
            }
            var latest = statistics.path("latest").path("completed");
            if (latest.has("id")) {
                completed.put(
                        latest.path("id").asLong(),
                        Instant.ofEpochMilli(latest.path("trigger_timestamp").asLong()));
            }
        } catch (IOException e) {
            // The next look asks again; until then the table's data timestamp stays where it was.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return completed;
    }

    /**
     * Read from the metrics of the job's source vertices over plain HTTP: each source operator's
     * {@code <operator>.pendingRecords} and {@code <operator>.numRecordsOut}, summed over subtasks,
     * and its {@code currentEmitEventTimeLag}, the largest of its subtasks', for a vertex that has
     * records left to read. The metric names a vertex offers are looked up once per job.
     */
    @Override
    public Optional<SourceProgress> sourceProgress(String jobId) {
        long pending = 0;
        long read = 0;
        long behind = 0;
        try {
            List<String> queries = sourceMetricQueries.get(jobId);
            if (queries == null) {
                queries = sourceMetricQueries(jobId);
                if (queries.isEmpty()) {
                    return Optional
                            .empty(); // no source says how far behind it is, or its metrics are not
                    // registered yet
                }
                if (sourceMetricQueries.size() > 1_000) {
                    sourceMetricQueries
                            .clear(); // ended jobs' entries: a plain bound instead of tracking job
                    // ends
                }
                sourceMetricQueries.put(jobId, queries);
            }
            for (String query : queries) {
                long vertexPending = 0;
                long vertexLag = SourceProgress.UNKNOWN;
                for (var metric : getJson(query)) {
                    String id = metric.path("id").asText();
                    if (id.endsWith(".pendingRecords")) {
                        vertexPending += (long) metric.path("sum").asDouble();
                    } else if (id.endsWith(".numRecordsOut")) {
                        read += (long) metric.path("sum").asDouble();
                    } else if (id.endsWith(".currentEmitEventTimeLag")
                            && metric.path("max").asDouble() >= 0) {
                        vertexLag = Math.max(vertexLag, (long) metric.path("max").asDouble());
                    }
                }
                pending += vertexPending;
                if (vertexPending > 0) {
                    behind =
                            vertexLag == SourceProgress.UNKNOWN || behind == SourceProgress.UNKNOWN
                                    ? SourceProgress.UNKNOWN
                                    : Math.max(behind, vertexLag);
                }
            }
        } catch (FlinkUnavailableException e) {
            sourceMetricQueries.remove(jobId);
            return Optional.empty(); // asked again at the next look
        }
        return Optional.of(new SourceProgress(pending, read, behind));
    }

    private List<String> sourceMetricQueries(String jobId) {
        List<String> queries = new ArrayList<>();
        for (var vertex : getJson("/jobs/" + jobId).path("vertices")) {
            if (!vertex.path("name").asText().startsWith("Source:")) {
                continue;
            }
            String metrics =
                    "/jobs/"
                            + jobId
                            + "/vertices/"
                            + vertex.path("id").asText()
                            + "/subtasks/metrics";
            List<String> wanted = new ArrayList<>();
            for (var metric : getJson(metrics)) {
                String id = metric.path("id").asText();
                if (id.startsWith("Source__")
                        && (id.endsWith(".pendingRecords")
                                || id.endsWith(".numRecordsOut")
                                || id.endsWith(".currentEmitEventTimeLag"))) {
                    wanted.add(id);
                }
            }
            if (wanted.stream().noneMatch(id -> id.endsWith(".pendingRecords"))) {
                return List.of(); // this source cannot say how far behind it is
            }
            queries.add(
                    metrics
                            + "?agg=sum,max&get="
                            + URLEncoder.encode(String.join(",", wanted), StandardCharsets.UTF_8));
        }
        return queries;
    }

    /**
     * Read from the job's metrics over plain HTTP: {@code [{"id": "numRestarts", "value": "2"}]}.
     */
    @Override
    public OptionalLong restarts(String jobId) {
        try {
            var response =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    baseUrl()
                                                            + "/jobs/"
                                                            + jobId
                                                            + "/metrics?get=numRestarts"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return OptionalLong.empty();
            }
            for (var metric : JSON.readTree(response.body())) {
                if (metric.path("id").asText().equals("numRestarts")) {
                    return OptionalLong.of(Long.parseLong(metric.path("value").asText("0")));
                }
            }
            return OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty(); // asked again at the next look
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /** The last "Caused by:" of a printed stack trace (the root cause), else its first line. */
    static String deepestCause(String stackTrace) {
        String cause = stackTrace.lines().findFirst().orElse(stackTrace);
        for (String line : stackTrace.lines().toList()) {
            if (line.startsWith("Caused by: ")) {
                cause = line.substring("Caused by: ".length());
            }
        }
        return cause.strip();
    }

    /**
     * Stops a job after a savepoint. Flink refuses while some task is not running yet (a job just
     * started or restarting), so this tries a few times before giving up.
     */
    @Override
    public CompletableFuture<Long> triggerCheckpoint(String jobId) {
        return client.triggerCheckpoint(JobID.fromHexString(jobId), CheckpointType.CONFIGURED);
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
            try {
                var response =
                        HTTP.send(
                                HttpRequest.newBuilder(URI.create(baseUrl() + "/jobs/" + jobId))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                var job = JSON.readTree(response.body());
                boolean allRunning = job.path("vertices").size() > 0;
                for (var vertex : job.path("vertices")) {
                    allRunning &= vertex.path("status").asText().equals("RUNNING");
                }
                if (allRunning
                        || !job.path("state")
                                .asText()
                                .matches("RUNNING|CREATED|INITIALIZING|RESTARTING|RECONCILING")) {
                    return;
                }
            } catch (IOException e) {
                return; // the stop itself will say what is wrong
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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
