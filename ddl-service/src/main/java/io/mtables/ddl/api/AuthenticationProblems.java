package io.mtables.ddl.api;

import io.mtables.ddl.audit.AuditTrail;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A caller without valid credentials gets a 401 as a problem, saying what to send, with the {@code
 * WWW-Authenticate} challenge; nothing was executed. (Authentication is not proactive, see
 * application.properties, so that these reach the REST layer.)
 */
public class AuthenticationProblems {

    static final String HOW =
            "an 'Authorization: Bearer <token>' header with a service account's API key"
                    + " (mtk.<account>.<secret>) or a JWT from the configured identity provider"
                    + " (docs/security.md)";

    @Inject AuditTrail audit;

    @ServerExceptionMapper
    public Response missing(UnauthorizedException e, HttpServerRequest http) {
        return unauthenticated("The request carries no credentials.", http);
    }

    @ServerExceptionMapper
    public Response refused(AuthenticationFailedException e, HttpServerRequest http) {
        return unauthenticated(
                "The request's credentials are not valid (unknown, expired, or not issued for"
                        + " this service).",
                http);
    }

    /**
     * The 401; a statement sent without valid credentials is audited (who is not known, where it
     * came from is), its text unread.
     */
    private Response unauthenticated(String detail, HttpServerRequest http) {
        StatementError error = StatementError.of("Unauthenticated", detail, HOW);
        if (http != null
                && http.method() == HttpMethod.POST
                && http.path().equals(StatementResource.STATEMENTS_PATH)) {
            audit.record(
                    "rest",
                    ClientAddress.of(http),
                    null,
                    null,
                    StatementResult.failed(null, error, Instant.now()));
        }
        return Response.fromResponse(Problems.of(error, null))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }
}
