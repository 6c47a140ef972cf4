package io.mtables.ddl.api;

import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.security.Principals;
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
                        + " see. 503 on a standby instance.")
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
        return feed.follow()
                .filter(event -> table == null || table.equals(event.table()))
                .filter(event -> sees(principal, event.table()));
    }

    private boolean sees(String principal, String table) {
        try {
            return runtime.withService(service -> service.sees(principal, table));
        } catch (ServiceNotReadyException reloading) {
            return false; // the catalog is being read back: shown from the next event on
        }
    }
}
