package io.mtables.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Statements to ddl-service's REST front door (docs/ddl.md), with a bearer token (a service
 * account's API key or a JWT; docs/security.md). Each statement gets a request id of its own, and
 * is sent again under the same id, so never executed twice, when no instance answered or one
 * answered 503 (not ready, the broker away, every reader busy): after its {@code Retry-After}, for
 * up to {@link #patience}.
 */
public final class MtablesClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<URI> endpoints;
    private final String token;
    private final Duration patience;
    private final HttpClient http;

    /** One instance of ddl-service; statements retried for up to a minute. */
    public MtablesClient(String ddlServiceUrl, String token) {
        this(List.of(ddlServiceUrl), token, Duration.ofMinutes(1));
    }

    /**
     * Several instances of ddl-service (any one answers: a standby forwards): a statement goes to
     * the first that takes the connection, as behind a load balancer.
     *
     * @param patience how long a statement is retried when no instance answers or one answers 503
     */
    public MtablesClient(List<String> ddlServiceUrls, String token, Duration patience) {
        this(ddlServiceUrls, token, patience, HttpClient.newBuilder());
    }

    /**
     * As {@link #MtablesClient(List, String, Duration)}, over HTTPS to a server whose certificate
     * {@code trusted} (PEM: a private CA's certificates, or the server's own, as bin/run's
     * .run/wire-tls/cert.pem) vouches for, and no other. The server's name is checked against its
     * certificate as always.
     */
    public MtablesClient(
            List<String> ddlServiceUrls, String token, Duration patience, Path trusted) {
        this(
                https(ddlServiceUrls),
                token,
                patience,
                HttpClient.newBuilder().sslContext(trusting(trusted)));
    }

    /** The URLs, each an https one: a token sent in the clear would be anyone's. */
    private static List<String> https(List<String> urls) {
        for (String url : urls) {
            if (!url.toLowerCase(Locale.ROOT).startsWith("https://")) {
                throw new IllegalArgumentException(
                        url + " is not an https URL: certificates to trust are for HTTPS");
            }
        }
        return urls;
    }

    private MtablesClient(
            List<String> ddlServiceUrls, String token, Duration patience, HttpClient.Builder http) {
        this.http = http.connectTimeout(Duration.ofSeconds(10)).build();
        this.token = token == null ? "" : token.strip();
        this.patience = patience;
        this.endpoints =
                ddlServiceUrls.stream()
                        .map(url -> URI.create(url.replaceAll("/+$", "") + "/api/v1/statements"))
                        .toList();
    }

    /** A TLS context that trusts the certificates in the PEM file {@code trusted} alone. */
    private static SSLContext trusting(Path trusted) {
        try (InputStream pem = Files.newInputStream(trusted)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate :
                    CertificateFactory.getInstance("X.509").generateCertificates(pem)) {
                store.setCertificateEntry("trusted-" + i++, certificate);
            }
            if (i == 0) {
                throw new IllegalArgumentException(trusted + " holds no certificate (PEM)");
            }
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot read the certificates to trust from " + trusted + ": " + e.getMessage(),
                    e);
        }
    }

    /** Executes a statement under a new request id; its JSON answer. */
    public JsonNode execute(String statement) {
        return execute(statement, UUID.randomUUID().toString());
    }

    /**
     * Executes a statement under {@code requestId}: sent again with the same id, it is answered
     * with its first result, not executed again.
     *
     * @throws StatementFailed when ddl-service refused it, or did not answer within the patience
     */
    public JsonNode execute(String statement, String requestId) {
        if (token.isEmpty()) {
            throw new IllegalStateException(
                    "no token to call ddl-service with: a service account's API key or a JWT"
                            + " (bin/run writes the local admin's key to .run/admin.key)");
        }
        return post(Map.of("statement", statement, "requestId", requestId));
    }

    /**
     * Hands each row of {@code query} to {@code each}, asked for {@code pageSize} rows at a time: a
     * SELECT that only picks columns of one table comes page by page (docs/ddl.md, "Reads that
     * stream"), every page from the snapshot the first one read, so a table of any size is held
     * neither here nor in ddl-service; any other answer comes whole.
     *
     * @return how many rows there were
     * @throws StatementFailed when a page was refused ({@code PageExpired}: the table was replaced
     *     since the first page; run the query again)
     */
    public long forEachRow(String query, int pageSize, Consumer<List<JsonNode>> each) {
        long count = 0;
        String token = null;
        do {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("statement", query);
            body.put("requestId", UUID.randomUUID().toString());
            body.put("pageSize", pageSize);
            if (token != null) {
                body.put("pageToken", token);
            }
            JsonNode page = post(body);
            for (JsonNode row : page.path("rows")) {
                List<JsonNode> values = new ArrayList<>();
                row.forEach(values::add);
                each.accept(values);
                count++;
            }
            token = page.hasNonNull("nextPageToken") ? page.get("nextPageToken").asText() : null;
        } while (token != null);
        return count;
    }

    /** Posts {@code request} (a statement, its request id, ...) until answered or refused. */
    private JsonNode post(Map<String, Object> request) {
        String statement = (String) request.get("statement");
        String requestId = (String) request.get("requestId");
        long deadline = System.nanoTime() + patience.toNanos();
        String body;
        try {
            body = JSON.writeValueAsString(request);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write the statement as JSON", e);
        }
        while (true) {
            Attempt attempt = sendToAny(body, statement, requestId);
            if (attempt.answer() != null) {
                return attempt.answer();
            }
            if (System.nanoTime() + attempt.retryAfter().toNanos() > deadline) {
                throw attempt.failure();
            }
            sleep(attempt.retryAfter());
        }
    }

    /** The rows of a query (SELECT, SHOW, DESCRIBE), each a list of JSON values. */
    public List<List<JsonNode>> rows(String query) {
        List<List<JsonNode>> rows = new ArrayList<>();
        for (JsonNode row : execute(query).path("rows")) {
            List<JsonNode> values = new ArrayList<>();
            row.forEach(values::add);
            rows.add(values);
        }
        return rows;
    }

    /** One round over the instances: an answer, or why not and when to try again. */
    private record Attempt(JsonNode answer, StatementFailed failure, Duration retryAfter) {}

    private Attempt sendToAny(String body, String statement, String requestId) {
        IOException unreachable = null;
        for (URI endpoint : endpoints) {
            try {
                return send(endpoint, body, statement, requestId);
            } catch (IOException e) {
                unreachable = e; // this instance is not there: the next one
            }
        }
        return new Attempt(
                null,
                new StatementFailed(
                        0,
                        "Unreachable",
                        "ddl-service at " + endpoints + " did not answer: " + unreachable,
                        statement,
                        requestId),
                Duration.ofSeconds(1));
    }

    private Attempt send(URI endpoint, String body, String statement, String requestId)
            throws IOException {
        HttpResponse<String> response;
        try {
            response =
                    http.send(
                            HttpRequest.newBuilder(endpoint)
                                    .timeout(Duration.ofSeconds(90))
                                    .header("content-type", "application/json")
                                    .header("authorization", "Bearer " + token)
                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        JsonNode answer =
                response.body().isBlank()
                        ? JSON.createObjectNode()
                        : JSON.readTree(response.body());
        if (response.statusCode() < 300) {
            return new Attempt(answer, null, null);
        }
        StatementFailed failure =
                new StatementFailed(
                        response.statusCode(),
                        answer.path("title").asText(""),
                        answer.path("detail").asText(answer.toString()),
                        statement,
                        requestId);
        if (response.statusCode() != 503) {
            throw failure;
        }
        long seconds = response.headers().firstValueAsLong("retry-after").orElse(1);
        return new Attempt(null, failure, Duration.ofSeconds(Math.max(1, seconds)));
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * ddl-service refused a statement (or none answered: status 0, reason {@code Unreachable}): the
     * HTTP status, the reason (the problem's title, docs/ddl.md) and its detail.
     */
    public static final class StatementFailed extends RuntimeException {
        private final int status;
        private final String reason;
        private final String detail;
        private final String requestId;

        StatementFailed(
                int status, String reason, String detail, String statement, String requestId) {
            super(
                    "HTTP "
                            + status
                            + " "
                            + reason
                            + ": "
                            + detail
                            + " (request "
                            + requestId
                            + ", statement: "
                            + statement.strip().lines().findFirst().orElse("")
                            + " ...)");
            this.status = status;
            this.reason = reason;
            this.detail = detail;
            this.requestId = requestId;
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

        /** The request id it was sent under: sending it again under this id is safe. */
        public String requestId() {
            return requestId;
        }
    }
}
