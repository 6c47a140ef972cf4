package io.mtables.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Waits for the services' warm-ups at start (docs/operations.md, {@code mt.warm-up}) to end, each
 * part reported in {@code /q/metrics} as done or failed: until then they compile Flink's planner
 * and jobs on the same cores as everything a benchmark measures.
 */
final class ServiceWarmUps {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ServiceWarmUps() {}

    /**
     * ddl-service's, planner-service's and job-manager-service's parts, at their base URLs; the job
     * manager's with the cluster's warm-up jobs, as the benches' embedded clusters are fresh.
     */
    static Map<String, List<String>> of(String ddl, String planner, String jobManager) {
        return Map.of(
                Statements.managementUrl(ddl),
                List.of("sql front end", "planner"),
                planner,
                List.of("planner"),
                jobManager,
                List.of("job compiler", "cluster"));
    }

    /** Returns how long it waited. */
    static Duration await(Map<String, List<String>> parts, Duration timeout) throws Exception {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        for (var service : parts.entrySet()) {
            for (String part : service.getValue()) {
                while (!done(service.getKey(), part)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                service.getKey() + " did not finish warming up " + part);
                    }
                    Thread.sleep(200);
                }
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static boolean done(String service, String part) throws Exception {
        String metrics =
                HTTP.send(
                                HttpRequest.newBuilder(URI.create(service + "/q/metrics")).build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
        String tag = "{part=\"" + part + "\"";
        return metrics.contains("mt_warm_up_seconds_count" + tag)
                || metrics.contains("mt_warm_up_failures_total" + tag);
    }
}
