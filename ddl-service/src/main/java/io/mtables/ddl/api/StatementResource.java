package io.mtables.ddl.api;

import io.mtables.ddl.audit.AuditTrail;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.security.Principals;
import io.mtables.ddl.statements.PageTokens;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The REST front door: one statement per request, answered by {@code StatementAnswers}. Only
 * authenticated callers (a service account's API key or a JWT: {@code io.mtables.ddl.security});
 * anyone else gets a 401 ({@code AuthenticationProblems}).
 */
@Authenticated
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class StatementResource {

    /** Where statements are posted. */
    static final String STATEMENTS_PATH = "/api/v1/statements";

    private final DdlRuntime runtime;
    private final StatementAnswers answers;
    private final SecurityIdentity caller;
    private final AuditTrail audit;
    private final RestPages pages;

    public StatementResource(
            DdlRuntime runtime,
            StatementAnswers answers,
            SecurityIdentity caller,
            AuditTrail audit,
            RestPages pages) {
        this.pages = pages;
        this.runtime = runtime;
        this.answers = answers;
        this.caller = caller;
        this.audit = audit;
    }

    @POST
    @Path("/statements")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Execute one statement",
            description =
                    "Queries (SHOW, DESCRIBE) answer 200 with columns and rows. Changes answer 202"
                        + " with the operation status and a Location to poll; the catalog change is"
                        + " durable when the response says SUCCEEDED. Refused statements answer"
                        + " 400, 404 or 409 as application/problem+json with line and column where"
                        + " known.")
    public Response execute(
            StatementRequest request,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @Parameter(
                            description =
                                    "Accepted for compatibility; statements complete within the"
                                            + " request.")
                    @QueryParam("wait")
                    String wait,
            @Context HttpServerRequest http) {
        String principal = Principals.of(caller);
        RestPages.Page page = answer(request, authorization, principal);
        audit.record(
                "rest",
                ClientAddress.of(http),
                principal,
                request == null ? null : request.statement(),
                page.result());
        return respond(page);
    }

    private RestPages.Page answer(
            StatementRequest request, String authorization, String principal) {
        if (request == null || request.statement() == null || request.statement().isBlank()) {
            return refused(
                    null,
                    StatementError.of(
                            "MalformedRequest",
                            "The body must be a JSON object with a non-blank 'statement'.",
                            "{\"statement\": \"...\", \"requestId\": \"optional\","
                                    + " \"pageSize\": 1000, \"pageToken\": \"optional\"}"));
        }
        String requestId =
                request.requestId() == null || request.requestId().isBlank()
                        ? UUID.randomUUID().toString()
                        : request.requestId();
        StatementError badSize = pages.checkSize(request.pageSize());
        if (badSize != null) {
            return refused(requestId, badSize);
        }
        ScanPosition from;
        try {
            from =
                    request.pageToken() == null
                            ? ScanPosition.START
                            : PageTokens.read(request.pageToken(), request.statement());
        } catch (StatementException invalid) {
            return refused(requestId, invalid.toError());
        }
        QueryAnswer answer =
                answers.answer(
                        "rest", requestId, request.statement(), authorization, principal, from);
        return pages.page(answer, request.pageSize(), request.statement());
    }

    private static RestPages.Page refused(String requestId, StatementError error) {
        return new RestPages.Page(StatementResult.failed(requestId, error, Instant.now()), null);
    }

    @GET
    @Path("/operations/{requestId}")
    @Operation(
            summary = "The status of a statement, by its request id",
            description = "Only the caller who sent the statement reads it; to anyone else: 404.")
    public Response operation(@PathParam("requestId") String requestId) {
        String principal = Principals.of(caller);
        try {
            return (runtime.standingBy()
                            ? runtime.forwarder()
                                    .operation(requestId, StatementAnswers.FORWARD_PATIENCE)
                                    .filter(result -> principal.equals(result.principal()))
                            : runtime.withService(
                                    service -> service.operation(requestId, principal)))
                    .map(result -> Response.ok(operationBody(result)).build())
                    .orElseGet(
                            () ->
                                    Problems.of(
                                            StatementError.of(
                                                    "OperationNotFound",
                                                    "No statement with request id "
                                                            + requestId
                                                            + ".",
                                                    null),
                                            requestId));
        } catch (ServiceNotReadyException e) {
            return Problems.of(
                    StatementError.of("ServiceNotReady", e.getMessage(), null), requestId);
        }
    }

    private static Response respond(RestPages.Page page) {
        StatementResult result = page.result();
        if (result.status() == StatementResult.Status.FAILED) {
            return Problems.of(result.error(), result.requestId());
        }
        if (result.columns() != null) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("columns", result.columns());
            body.put("rows", result.rows());
            if (page.nextPageToken() != null) {
                body.put("nextPageToken", page.nextPageToken());
            }
            return Response.ok(body).build();
        }
        return Response.accepted(operationBody(result))
                .location(URI.create("/api/v1/operations/" + result.requestId()))
                .build();
    }

    private static Map<String, Object> operationBody(StatementResult result) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("requestId", result.requestId());
        body.put("status", result.status());
        body.put("table", result.table());
        body.put("message", result.message());
        if (result.error() != null) {
            body.put("error", result.error());
        }
        body.put("processedAt", result.processedAt());
        body.put("principal", result.principal());
        return body;
    }
}
