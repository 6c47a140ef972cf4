package io.mtables.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.mtables.testing.tls.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against a stand-in for ddl-service's REST port (the JDK's HTTP server). */
class MtablesClientTest {

    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aStatementRefusedWith503IsSentAgainUnderItsRequestId() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String url =
                serve(
                        () ->
                                calls.incrementAndGet() == 1
                                        ? new Answer(
                                                503,
                                                "{\"title\": \"ServiceNotReady\", \"detail\":"
                                                        + " \"catalog loading\"}")
                                        : new Answer(200, "{\"columns\": [], \"rows\": [[1]]}"));

        var client = new MtablesClient(List.of(url), "mtk.a.b", Duration.ofSeconds(10));

        assertThat(client.rows("SHOW MATERIALIZED TABLES")).hasSize(1);
        assertThat(bodies).hasSize(2);
        assertThat(bodies.get(0)).contains("\"requestId\"").isEqualTo(bodies.get(1));
        assertThat(authorizations).containsOnly("Bearer mtk.a.b");
    }

    @Test
    void rowsAreReadPageByPageWithTheLastPagesToken() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String url =
                serve(
                        () ->
                                calls.incrementAndGet() == 1
                                        ? new Answer(
                                                200,
                                                "{\"columns\": [], \"rows\": [[1], [2]],"
                                                        + " \"nextPageToken\": \"p1.abc\"}")
                                        : new Answer(200, "{\"columns\": [], \"rows\": [[3]]}"));

        var client = new MtablesClient(List.of(url), "mtk.a.b", Duration.ofSeconds(10));
        List<Integer> read = new CopyOnWriteArrayList<>();

        assertThat(client.forEachRow("SELECT v FROM s.t", 2, row -> read.add(row.get(0).asInt())))
                .isEqualTo(3);
        assertThat(read).containsExactly(1, 2, 3);
        assertThat(bodies.get(0)).contains("\"pageSize\":2").doesNotContain("pageToken");
        assertThat(bodies.get(1)).contains("\"pageToken\":\"p1.abc\"");
    }

    @Test
    void aRefusalIsItsReasonAndDetailAtOnce() throws Exception {
        String url =
                serve(
                        () ->
                                new Answer(
                                        404,
                                        "{\"title\": \"TableNotFound\", \"detail\": \"Table x does"
                                                + " not exist.\"}"));

        var client = new MtablesClient(List.of(url), "mtk.a.b", Duration.ofSeconds(10));

        assertThatThrownBy(() -> client.execute("DROP TABLE x"))
                .isInstanceOfSatisfying(
                        MtablesClient.StatementFailed.class,
                        failed -> {
                            assertThat(failed.status()).isEqualTo(404);
                            assertThat(failed.reason()).isEqualTo("TableNotFound");
                            assertThat(failed.detail()).isEqualTo("Table x does not exist.");
                        });
        assertThat(bodies).hasSize(1);
    }

    @Test
    void anInstanceThatIsNotThereIsPassedOver() throws Exception {
        String url = serve(() -> new Answer(202, "{\"status\": \"SUCCEEDED\"}"));

        var client =
                new MtablesClient(
                        List.of("http://127.0.0.1:1", url), "mtk.a.b", Duration.ofSeconds(10));

        assertThat(client.execute("CREATE TABLE t (a INT)").path("status").asText())
                .isEqualTo("SUCCEEDED");
    }

    @Test
    void overHttpsTheServerIsReachedOnlyWhenTheGivenCertificatesVouchForIt(@TempDir Path dir)
            throws Exception {
        Path store = TestCertificates.keyStore(dir, "server");
        Path other = TestCertificates.keyStore(dir, "other");
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ((HttpsServer) server).setHttpsConfigurator(new HttpsConfigurator(serverTls(store)));
        String url = listen(() -> new Answer(202, "{\"status\": \"SUCCEEDED\"}"), "https");

        var trusting =
                new MtablesClient(
                        List.of(url),
                        "mtk.a.b",
                        Duration.ZERO,
                        TestCertificates.certificate(store));
        var trustingAnother =
                new MtablesClient(
                        List.of(url),
                        "mtk.a.b",
                        Duration.ZERO,
                        TestCertificates.certificate(other));

        assertThat(trusting.execute("CREATE TABLE t (a INT)").path("status").asText())
                .isEqualTo("SUCCEEDED");
        assertThatThrownBy(() -> trustingAnother.execute("CREATE TABLE t (a INT)"))
                .as("a certificate another vouches for")
                .isInstanceOfSatisfying(
                        MtablesClient.StatementFailed.class,
                        failed -> assertThat(failed.status()).isZero());
        assertThat(bodies).as("nothing reached the server but the trusting client's").hasSize(1);
        assertThatThrownBy(
                        () ->
                                new MtablesClient(
                                        List.of(url), "t", Duration.ZERO, store /* not PEM */))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(store.toString());
        assertThatThrownBy(
                        () ->
                                new MtablesClient(
                                        List.of("http://127.0.0.1:1"),
                                        "t",
                                        Duration.ZERO,
                                        TestCertificates.certificate(store)))
                .as("the token would go in the clear")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an https URL");
    }

    private static SSLContext serverTls(Path store) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(store)) {
            keys.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        KeyManagerFactory factory =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, TestCertificates.PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }

    private record Answer(int status, String body) {}

    private interface Answers {
        Answer next();
    }

    private String serve(Answers answers) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        return listen(answers, "http");
    }

    private String listen(Answers answers, String scheme) {
        server.createContext(
                "/api/v1/statements",
                exchange -> {
                    bodies.add(
                            new String(
                                    exchange.getRequestBody().readAllBytes(),
                                    StandardCharsets.UTF_8));
                    authorizations.add(exchange.getRequestHeaders().getFirst("authorization"));
                    Answer answer = answers.next();
                    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
                    if (answer.status() == 503) {
                        exchange.getResponseHeaders().add("Retry-After", "1");
                    }
                    exchange.sendResponseHeaders(answer.status(), body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        server.start();
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }
}
