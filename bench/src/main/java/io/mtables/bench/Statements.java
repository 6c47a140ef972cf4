package io.mtables.bench;

import io.mtables.client.MtablesClient;
import java.net.URI;

/**
 * Statements to ddl-service's REST front door, as a user sends them (mtables-client): with the
 * bearer token in {@code MT_TOKEN}, the service account bin/bench gives the ddl-service it starts.
 */
final class Statements {

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
    static void post(String ddlServiceUrl, String statement) {
        new MtablesClient(ddlServiceUrl, token()).execute(statement);
    }
}
