package io.mtables.ddl.api;

import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.security.Principals;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.schemas.ddl.StatementError;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * Refresh events as they arrive, as Server-Sent Events (the console follows them): only those of
 * tables the caller may see, as SHOW decides. Served by the active instance, which holds the
 * catalog and the grants the check needs; a standby answers 503.
 */
@Authenticated
@Path("/api/v1/events")
public class EventsResource {

    private final RefreshEventFeed feed;
    private final DdlRuntime runtime;
    private final SecurityIdentity caller;

    public EventsResource(RefreshEventFeed feed, DdlRuntime runtime, SecurityIdentity caller) {
        this.feed = feed;
        this.runtime = runtime;
        this.caller = caller;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Follow refresh events",
            description =
                    "The job manager's and ddl-service's events on mt.refresh.events (JobStarted,"
                        + " RefreshSucceeded, Suspended, FreshnessMissed, ...) as they are read,"
                        + " one JSON object per Server-Sent Event: type, table, readAt and the"
                        + " event as its contract in schemas/ has it. Only tables the caller may"
                        + " see; 503 on a standby instance, or past 4 streams per caller (64 in"
                        + " all). A JWT's stream ends at its expiry.")
    public Multi<RefreshEventView> follow(
            @Parameter(description = "Only this table's events (default_catalog.db.name)")
                    @QueryParam("table")
                    String table) {
        String principal = Principals.of(caller);
        if (runtime.standingBy() || runtime.catalog().isEmpty()) {
            throw new WebApplicationException(
                    Problems.of(
                            StatementError.of(
                                    "ServiceNotReady",
                                    "Events are followed on the active instance; this one "
                                            + (runtime.standingBy()
                                                    ? "stands by."
                                                    : "is reading its catalog back."),
                                    "the request again (another instance, or in a moment)"),
                            null));
        }
        Multi<RefreshEventView> events =
                feed.follow(principal)
                        .orElseThrow(
                                () ->
                                        new WebApplicationException(
                                                Problems.of(
                                                        StatementError.of(
                                                                QueryRunner.TOO_MANY_QUERIES,
                                                                "Too many event streams: "
                                                                        + RefreshEventFeed
                                                                                .MOST_PER_CALLER
                                                                        + " per caller, "
                                                                        + RefreshEventFeed.MOST
                                                                        + " in all.",
                                                                "one stream per page (close the"
                                                                        + " others), or another"
                                                                        + " instance"),
                                                        null)));
        Instant expires = expiry();
        return events.select()
                .first(event -> expires == null || Instant.now().isBefore(expires))
                .filter(event -> table == null || table.equals(event.table()))
                .filter(event -> sees(principal, event.table()));
    }

    /** When the caller's credential expires (a JWT's exp): its stream ends at the next event. */
    private Instant expiry() {
        if (caller.getPrincipal() instanceof JsonWebToken jwt && jwt.getExpirationTime() > 0) {
            return Instant.ofEpochSecond(jwt.getExpirationTime());
        }
        return null;
    }

    private boolean sees(String principal, String table) {
        try {
            return runtime.withService(service -> service.sees(principal, table));
        } catch (ServiceNotReadyException reloading) {
            return false; // the catalog is being read back: shown from the next event on
        }
    }
}
