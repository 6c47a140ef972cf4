package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** The Flink cluster's jobs, as its REST API shows them. */
final class FlinkJobs {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private FlinkJobs() {}

    /**
     * The job whose name starts with the prefix, once it and all its tasks run (its overview
     * entry).
     */
    static JsonNode awaitRunning(int flinkPort, String namePrefix) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode job : get(flinkPort, "/jobs/overview").path("jobs")) {
                if (job.path("name").asText().startsWith(namePrefix)
                        && job.path("state").asText().equals("RUNNING")
                        && job.path("tasks").path("running").asInt()
                                == job.path("tasks").path("total").asInt()) {
                    return job;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no RUNNING job " + namePrefix + "* within " + PATIENCE);
    }

    /** Returns once no job is running or on its way to or from running. */
    static void awaitNoneRunning(int flinkPort) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            boolean running = false;
            for (JsonNode job : get(flinkPort, "/jobs/overview").path("jobs")) {
                running |=
                        List.of("RUNNING", "CREATED", "CANCELLING", "RESTARTING")
                                .contains(job.path("state").asText());
            }
            if (!running) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("a job still runs on Flink after " + PATIENCE);
    }

    static JsonNode get(int flinkPort, String path) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + flinkPort + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "Flink REST "
                            + path
                            + ": HTTP "
                            + response.statusCode()
                            + " "
                            + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Cancels a job (Flink's PATCH /jobs/:jobid) and waits until it is cancelled. */
    static void cancel(int flinkPort, String jobId) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:"
                                                        + flinkPort
                                                        + "/jobs/"
                                                        + jobId
                                                        + "?mode=cancel"))
                                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new IllegalStateException(
                    "Flink REST cancel of " + jobId + ": HTTP " + response.statusCode());
        }
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!get(flinkPort, "/jobs/" + jobId).path("state").asText().equals("CANCELED")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(jobId + " not cancelled after " + PATIENCE);
            }
            Thread.sleep(100);
        }
    }
}
