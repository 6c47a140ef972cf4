package io.mtables.ddl.api;

import io.mtables.schemas.ddl.StatementError;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
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

    @ServerExceptionMapper
    public Response missing(UnauthorizedException e) {
        return unauthenticated("The request carries no credentials.");
    }

    @ServerExceptionMapper
    public Response refused(AuthenticationFailedException e) {
        return unauthenticated(
                "The request's credentials are not valid (unknown, expired, or not issued for"
                        + " this service).");
    }

    private static Response unauthenticated(String detail) {
        Response problem = Problems.of(StatementError.of("Unauthenticated", detail, HOW), null);
        return Response.fromResponse(problem)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }
}
