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
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.util.TimeUtils;

/**
 * What the job manager reads of a Flink cluster with the JDK's HTTP client from its REST API (over
 * HTTPS with {@link FlinkRestTls}): slots, metrics, checkpoint statistics, failure causes and task
 * states. Flink's REST client would deserialize these into Flink's own classes, which breaks when
 * two class loaders hold them (Quarkus tests, the packaged service), or does not offer them; {@link
 * RemoteFlinkTarget} keeps the client for what changes a job.
 */
final class FlinkRestReads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http;

    /** Per job, the metric queries of its source vertices, looked up once. */
    private final Map<String, List<String>> sourceMetricQueries = new ConcurrentHashMap<>();

    /** Per job, the queries of its source operators' {@code numRecordsOut}: see below. */
    private final Map<String, List<String>> sourceReadQueries = new ConcurrentHashMap<>();

    FlinkRestReads(String baseUrl, HttpClient http) {
        this.baseUrl = baseUrl;
        this.http = http;
    }

    /**
     * Read with the JDK's HTTP client from {@code /overview} (slots of the registered TaskManagers)
     * and {@code /jobs/overview}: a job that is initializing, or whose tasks are all still waiting
     * to be placed, holds no slot yet but will take one, so it counts as waiting.
     */
    ClusterCapacity capacity() {
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
    Duration metricsInterval() {
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
                    http.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new FlinkUnavailableException(
                        "Flink at "
                                + baseUrl
                                + " answered "
                                + response.statusCode()
                                + " to GET "
                                + path,
                        null);
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new FlinkUnavailableException(
                    "cannot GET " + path + " from Flink at " + baseUrl + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkUnavailableException(
                    "interrupted while asking Flink at " + baseUrl + " for " + path, e);
        }
    }

    /**
     * Read from the job's exception history with the JDK's HTTP client: Flink's REST client would
     * deserialize the failure into its own exception classes, which breaks when two class loaders
     * hold them (Quarkus tests).
     */
    Optional<String> failureCause(String jobId) {
        JsonNode entries;
        try {
            entries =
                    getJson("/jobs/" + jobId + "/exceptions?maxExceptions=1")
                            .path("exceptionHistory")
                            .path("entries");
        } catch (FlinkUnavailableException e) {
            return e.getCause() instanceof IOException
                    ? Optional.of("the cause could not be read from Flink (" + e.getMessage() + ")")
                    : Optional.empty();
        }
        if (!entries.isArray() || entries.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                deepestCause(
                        entries.get(0)
                                .path("stacktrace")
                                .asText(entries.get(0).path("exceptionName").asText())));
    }

    /**
     * Read from the job's checkpoint statistics with the JDK's HTTP client, for the same reason.
     */
    SortedMap<Long, Instant> completedCheckpoints(String jobId) {
        SortedMap<Long, Instant> completed = new TreeMap<>();
        JsonNode statistics;
        try {
            statistics = getJson("/jobs/" + jobId + "/checkpoints");
        } catch (FlinkUnavailableException e) {
            // The next look asks again; until then the table's data timestamp stays where it was.
            return completed;
        }
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
        return completed;
    }

    /**
     * Read from the metrics of the job's source vertices with the JDK's HTTP client: each source
     * operator's {@code <operator>.pendingRecords} and {@code <operator>.numRecordsOut}, summed
     * over subtasks, and its {@code currentEmitEventTimeLag}, the largest of its subtasks', for a
     * vertex that has records left to read. The metric names a vertex offers are looked up once per
     * job.
     */
    Optional<SourceProgress> sourceProgress(String jobId) {
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

    /**
     * Read from the metrics of the job's source vertices with the JDK's HTTP client: each source
     * operator's {@code <operator>.numRecordsOut}, summed over subtasks and sources, for any source
     * (a batch refresh's Paimon sources cannot say what they have left). The metric names are
     * looked up once per job, after its sources have registered them.
     */
    OptionalLong sourceRecordsRead(String jobId) {
        try {
            List<String> queries = sourceReadQueries.get(jobId);
            if (queries == null) {
                queries = sourceReadQueries(jobId);
                if (queries.isEmpty()) {
                    return OptionalLong.empty(); // not registered yet
                }
                if (sourceReadQueries.size() > 1_000) {
                    sourceReadQueries.clear(); // ended jobs' entries: a plain bound, as above
                }
                sourceReadQueries.put(jobId, queries);
            }
            long read = 0;
            for (String query : queries) {
                for (var metric : getJson(query)) {
                    read += (long) metric.path("sum").asDouble();
                }
            }
            return OptionalLong.of(read);
        } catch (FlinkUnavailableException e) {
            sourceReadQueries.remove(jobId);
            return OptionalLong.empty(); // asked again at the next look
        }
    }

    private List<String> sourceReadQueries(String jobId) {
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
                if (id.startsWith("Source__") && id.endsWith(".numRecordsOut")) {
                    wanted.add(id);
                }
            }
            if (wanted.isEmpty()) {
                return List.of(); // a source whose metrics are not registered yet
            }
            queries.add(
                    metrics
                            + "?agg=sum&get="
                            + URLEncoder.encode(String.join(",", wanted), StandardCharsets.UTF_8));
        }
        return queries;
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
     * Read from the job's metrics with the JDK's HTTP client: {@code [{"id": "numRestarts",
     * "value": "2"}]}.
     */
    OptionalLong restarts(String jobId) {
        try {
            for (var metric : getJson("/jobs/" + jobId + "/metrics?get=numRestarts")) {
                if (metric.path("id").asText().equals("numRestarts")) {
                    return OptionalLong.of(Long.parseLong(metric.path("value").asText("0")));
                }
            }
            return OptionalLong.empty();
        } catch (FlinkUnavailableException | NumberFormatException e) {
            return OptionalLong.empty(); // asked again at the next look
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
     * Whether every task of the job runs, or the job is in no state where it will: before that,
     * Flink refuses savepoints. Empty when the cluster does not answer.
     */
    Optional<Boolean> allTasksRunningOrNeverWill(String jobId) {
        return job(jobId)
                .map(
                        job ->
                                allTasksRunning(job)
                                        || !job.path("state")
                                                .asText()
                                                .matches(
                                                        "RUNNING|CREATED|INITIALIZING|RESTARTING|RECONCILING"));
    }

    /**
     * Whether every task of the job runs: before that, Flink refuses checkpoints. Empty when the
     * cluster does not answer.
     */
    Optional<Boolean> allTasksRunning(String jobId) {
        return job(jobId).map(FlinkRestReads::allTasksRunning);
    }

    private Optional<JsonNode> job(String jobId) {
        try {
            return Optional.of(getJson("/jobs/" + jobId));
        } catch (FlinkUnavailableException e) {
            return Optional.empty();
        }
    }

    private static boolean allTasksRunning(JsonNode job) {
        boolean allRunning = job.path("vertices").size() > 0;
        for (var vertex : job.path("vertices")) {
            allRunning &= vertex.path("status").asText().equals("RUNNING");
        }
        return allRunning;
    }
}
