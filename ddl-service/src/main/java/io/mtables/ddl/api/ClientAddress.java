package io.mtables.ddl.api;

import io.vertx.core.http.HttpServerRequest;

/** Where a REST request came from, as the audit trail records it. */
final class ClientAddress {

    private ClientAddress() {}

    /** The caller's address as the connection gives it ({@code host:port}). */
    static String of(HttpServerRequest http) {
        return http == null || http.remoteAddress() == null
                ? "unknown"
                : http.remoteAddress().hostAddress() + ":" + http.remoteAddress().port();
    }
}
