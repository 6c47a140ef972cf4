package io.mtables.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * Statements to ddl-service's REST front door, as a user sends them: with the bearer token in
 * {@code MT_TOKEN}, the service account bin/bench gives the ddl-service it starts.
 */
final class Statements {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Statements() {}

    static String token() {
        String token = System.getenv("MT_TOKEN");
        if (token == null || token.isBlank()) {
            throw new IllegalStateException("MT_TOKEN is not set (bin/bench sets it)");
        }
        return token;
    }

    /** Where ddl-service at {@code ddlServiceUrl} serves /q/*: bin/bench puts it 1000 ports up. */
    static String managementUrl(String ddlServiceUrl) {
        URI uri = URI.create(ddlServiceUrl);
        return uri.getScheme() + "://" + uri.getHost() + ":" + (uri.getPort() + 1000);
    }

    /** Sends a statement and returns once ddl-service acknowledged it; fails on an error answer. */
    static void post(String ddlServiceUrl, String statement) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(ddlServiceUrl + "/api/v1/statements"))
                                .header("content-type", "application/json")
                                .header("authorization", "Bearer " + token())
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                JSON.writeValueAsString(
                                                        Map.of("statement", statement))))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(
                    "HTTP " + response.statusCode() + " for " + statement + ": " + response.body());
        }
    }
}
