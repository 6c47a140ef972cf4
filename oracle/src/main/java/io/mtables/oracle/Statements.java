package io.mtables.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import io.mtables.client.MtablesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements to ddl-service's REST front door, as any user sends them, through mtables-client
 * ({@link MtablesClient}) with a bearer token (a service account's API key or a JWT;
 * docs/security.md). Not retried: the oracle's runs see each refusal as it comes.
 */
public final class Statements {

    private final MtablesClient client;

    /** {@code token}: the bearer token sent with every statement. */
    public Statements(String ddlServiceUrl, String token) {
        this(List.of(ddlServiceUrl), token);
    }

    /**
     * Several instances of ddl-service (any one answers: a standby forwards): a statement goes to
     * the first that takes the connection, as behind a load balancer.
     */
    public Statements(List<String> ddlServiceUrls, String token) {
        this.client = new MtablesClient(ddlServiceUrls, token, Duration.ZERO);
    }

    /** One instance of ddl-service over HTTPS, its certificate vouched for by {@code trusted}. */
    public Statements(String ddlServiceUrl, String token, Path trusted) {
        this.client = new MtablesClient(List.of(ddlServiceUrl), token, Duration.ZERO, trusted);
    }

    /**
     * Sends a statement; its JSON answer, or {@link MtablesClient.StatementFailed} with
     * ddl-service's reason when it refused it (an IllegalStateException when none answered).
     */
    public JsonNode send(String statement) {
        try {
            return client.execute(statement);
        } catch (MtablesClient.StatementFailed failed) {
            if (failed.status() == 0) {
                throw new IllegalStateException(failed.getMessage(), failed); // none answered
            }
            throw failed;
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
}
