package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * One session of Flink's own SQL gateway (its REST API, v3), where Flink's own materialized tables
 * are made: the rival a user would pick instead of ours.
 */
final class FlinkSqlGateway {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final String url;
    private final String session;

    private FlinkSqlGateway(String url, String session) {
        this.url = url;
        this.session = session;
    }

    /** Opens a session with these session settings (Flink configuration keys). */
    static FlinkSqlGateway open(String url, Map<String, String> settings) throws Exception {
        JsonNode opened =
                send(
                        HttpRequest.newBuilder(URI.create(url + "/v3/sessions"))
                                .POST(body(Map.of("properties", settings))));
        return new FlinkSqlGateway(url, opened.path("sessionHandle").asText());
    }

    /** Runs one statement to its end; its error, with Flink's innermost cause, is thrown. */
    void execute(String statement) throws Exception {
        String operation =
                send(HttpRequest.newBuilder(
                                        URI.create(url + "/v3/sessions/" + session + "/statements"))
                                .POST(body(Map.of("statement", statement))))
                        .path("operationHandle")
                        .asText();
        String operationPath = url + "/v3/sessions/" + session + "/operations/" + operation;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String status = "";
        while (System.nanoTime() < deadline) {
            status =
                    send(HttpRequest.newBuilder(URI.create(operationPath + "/status")).GET())
                            .path("status")
                            .asText();
            if (status.equals("FINISHED")) {
                return;
            }
            if (status.equals("ERROR")) {
                HttpResponse<String> result =
                        HTTP.send(
                                HttpRequest.newBuilder(URI.create(operationPath + "/result/0"))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                throw new IllegalStateException(
                        "Flink's SQL gateway refused " + statement + ": " + cause(result.body()));
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "Flink's SQL gateway did not finish "
                        + statement
                        + " within "
                        + PATIENCE
                        + " ("
                        + status
                        + ")");
    }

    /** The last "Caused by" line of the gateway's error, where Flink says what went wrong. */
    private static String cause(String body) throws Exception {
        String cause = body;
        for (JsonNode error : JSON.readTree(body).path("errors")) {
            for (String line : error.asText().split("\n")) {
                if (line.startsWith("Caused by: ")) {
                    cause = line.substring("Caused by: ".length());
                }
            }
        }
        return cause;
    }

    private static HttpRequest.BodyPublisher body(Object value) throws Exception {
        return HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(value));
    }

    private static JsonNode send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        request.header("content-type", "application/json").build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "Flink's SQL gateway answered HTTP "
                            + response.statusCode()
                            + ": "
                            + response.body());
        }
        return JSON.readTree(response.body());
    }
}
