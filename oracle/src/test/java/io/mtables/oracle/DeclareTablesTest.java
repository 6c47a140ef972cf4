package io.mtables.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.mtables.client.MtablesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * bin/run declares the demo's tables at every start: a table the user changed since (ALTER ... AS
 * appending a column) must not keep the system from starting, and nothing else may be swallowed.
 */
class DeclareTablesTest {

    private final List<String> received = new ArrayList<>();
    private HttpServer ddlService;
    private String refusal;

    @AfterEach
    void stop() {
        ddlService.stop(0);
    }

    @Test
    void aMaterializedTableTheUserChangedIsLeftAsItIsAndSaidSo() throws IOException {
        refusal =
                "{\"title\": \"IncompatibleSchemaChange\", \"status\": 400, \"detail\": \"Column"
                        + " 'note' (position 6) would be removed.\"}";
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        harness(printed).declareTables();

        assertThat(received)
                .as("every table was declared")
                .anyMatch(s -> s.contains("CREATE TABLE"))
                .anyMatch(s -> s.contains("MATERIALIZED TABLE"));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains(
                        "left as it is, changed since the example declared it: demo.user_domains"
                                + " (Column 'note' (position 6) would be removed.)");
    }

    @Test
    void anyOtherRefusalStillFails() throws IOException {
        refusal =
                "{\"title\": \"PlanRefused\", \"status\": 400, \"detail\": \"cannot be kept"
                        + " fresh\"}";

        assertThatThrownBy(() -> harness(new ByteArrayOutputStream()).declareTables())
                .isInstanceOf(MtablesClient.StatementFailed.class)
                .hasMessageContaining("HTTP 400 PlanRefused: cannot be kept fresh");
    }

    private Harness harness(ByteArrayOutputStream printed) throws IOException {
        ddlService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ddlService.createContext(
                "/api/v1/statements",
                exchange -> {
                    String body =
                            new String(
                                    exchange.getRequestBody().readAllBytes(),
                                    StandardCharsets.UTF_8);
                    received.add(body);
                    boolean refused = body.contains("MATERIALIZED TABLE");
                    byte[] answer =
                            (refused ? refusal : "{\"status\": \"ACCEPTED\"}")
                                    .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders()
                            .add(
                                    "content-type",
                                    refused ? "application/problem+json" : "application/json");
                    exchange.sendResponseHeaders(refused ? 400 : 202, answer.length);
                    exchange.getResponseBody().write(answer);
                    exchange.close();
                });
        ddlService.start();
        var settings =
                new Harness.Settings(
                        Example.named("users-domains"),
                        "demo",
                        "cdc",
                        "127.0.0.1:9092",
                        1,
                        Duration.ZERO,
                        50,
                        Duration.ZERO);
        return new Harness(
                settings,
                null,
                new Statements(
                        "http://127.0.0.1:" + ddlService.getAddress().getPort(), "mtk.test.key"),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
}
