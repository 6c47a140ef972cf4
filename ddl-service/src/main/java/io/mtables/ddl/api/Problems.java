package io.mtables.ddl.api;

import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.ddl.statements.StatementService;
import io.mtables.schemas.ddl.StatementError;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** RFC 9457 problem details for refused statements, and the HTTP status of each reason. */
final class Problems {

    static final String MEDIA_TYPE = "application/problem+json";

    private static final Set<String> NOT_FOUND =
            Set.of("TableNotFound", "OperationNotFound", "RoleNotFound");
    private static final Set<String> CONFLICT =
            Set.of(
                    "TableAlreadyExists",
                    "TableInUse",
                    "AlreadySuspended",
                    "NotSuspended",
                    "RefreshOfContinuousTable",
                    "RoleAlreadyExists",
                    StatementService.REQUEST_ID_IN_USE);

    /** When a client may try a 503 again. */
    static final int RETRY_AFTER_SECONDS = 5;

    private Problems() {}

    static int statusOf(String reason) {
        if (NOT_FOUND.contains(reason)) {
            return 404;
        }
        if (CONFLICT.contains(reason)) {
            return 409;
        }
        if ("Unauthenticated".equals(reason)) {
            return 401;
        }
        if ("PermissionDenied".equals(reason)) {
            return 403;
        }
        if (WarehouseReader.PAGE_EXPIRED.equals(reason)) {
            return 410;
        }
        if ("ServiceNotReady".equals(reason)
                || StatementService.BROKER_UNAVAILABLE.equals(reason)
                || QueryRunner.TOO_MANY_QUERIES.equals(reason)
                || WarehouseReader.READ_FAILED.equals(reason)) {
            return 503;
        }
        if (StatementService.INTERNAL_ERROR.equals(reason)) {
            return 500;
        }
        return 400;
    }

    static Response of(StatementError error, String requestId) {
        int status = statusOf(error.reason());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "https://mtables.io/problems/" + error.reason());
        body.put("title", error.reason());
        body.put("status", status);
        body.put("detail", error.message());
        if (error.line() != null) {
            body.put("line", error.line());
            body.put("column", error.column());
        }
        if (error.allowed() != null) {
            body.put("allowed", error.allowed());
        }
        if (requestId != null) {
            body.put("requestId", requestId);
        }
        Response.ResponseBuilder response = Response.status(status).type(MEDIA_TYPE).entity(body);
        if (status == 503) {
            response.header(
                    "Retry-After",
                    RETRY_AFTER_SECONDS); // nothing was applied: the same request may be sent again
        }
        return response.build();
    }
}
