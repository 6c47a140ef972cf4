package io.mtables.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Statements to ddl-service's REST front door, as any user sends them: with a bearer token (a
 * service account's API key or a JWT; docs/security.md).
 */
public final class Statements {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<URI> endpoints;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** {@code token}: the bearer token sent with every statement. */
    public Statements(String ddlServiceUrl, String token) {
        this(List.of(ddlServiceUrl), token);
    }

    /**
     * Several instances of ddl-service (any one answers: a standby forwards): a statement goes to
     * the first that takes the connection, as behind a load balancer.
     */
    public Statements(List<String> ddlServiceUrls, String token) {
        this.token = token == null ? "" : token.strip();
        this.endpoints =
                ddlServiceUrls.stream()
                        .map(url -> URI.create(url.replaceAll("/+$", "") + "/api/v1/statements"))
                        .toList();
    }

    /**
     * Sends a statement; its JSON answer, or an error with ddl-service's message when it failed.
     */
    public JsonNode send(String statement) {
        if (token.isEmpty()) {
            throw new IllegalStateException(
                    "no token to call ddl-service with: set MT_TOKEN (bin/run writes the local"
                            + " admin's API key to .run/admin.key) or pass --token");
        }
        IOException unreachable = null;
        for (URI endpoint : endpoints) {
            try {
                return send(endpoint, statement);
            } catch (IOException e) {
                unreachable = e; // this instance is not there: the next one
            }
        }
        throw new IllegalStateException(
                "ddl-service at " + endpoints + " did not answer: " + unreachable.getMessage(),
                unreachable);
    }

    private JsonNode send(URI endpoint, String statement) throws IOException {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(endpoint)
                                    .timeout(Duration.ofSeconds(60))
                                    .header("content-type", "application/json")
                                    .header("authorization", "Bearer " + token)
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    JSON.writeValueAsString(
                                                            Map.of("statement", statement))))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode body =
                    response.body().isBlank()
                            ? JSON.createObjectNode()
                            : JSON.readTree(response.body());
            if (response.statusCode() >= 300) {
                throw new StatementFailed(
                        response.statusCode(),
                        body.path("title").asText(""),
                        body.path("detail").asText(body.toString()),
                        statement);
            }
            return body;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The rows of a SELECT over a materialized table. */
    public List<List<String>> rows(String query) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode row : send(query).path("rows")) {
            List<String> values = new ArrayList<>();
            row.forEach(value -> values.add(Rows.value(value)));
            rows.add(values);
        }
        return rows;
    }

    /**
     * ddl-service refused a statement: its HTTP status, the reason (the problem's title) and
     * detail.
     */
    public static final class StatementFailed extends RuntimeException {
        private final int status;
        private final String reason;
        private final String detail;

        StatementFailed(int status, String reason, String detail, String statement) {
            super(
                    "HTTP "
                            + status
                            + " "
                            + reason
                            + ": "
                            + detail
                            + " (statement: "
                            + statement.strip().lines().findFirst().orElse("")
                            + " ...)");
            this.status = status;
            this.reason = reason;
            this.detail = detail;
        }

        public int status() {
            return status;
        }

        public String reason() {
            return reason;
        }

        public String detail() {
            return detail;
        }
    }
}
