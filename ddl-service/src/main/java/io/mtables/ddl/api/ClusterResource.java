package io.mtables.ddl.api;

import io.mtables.ddl.domain.ClusterStatusProjection;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.infra.ServiceNotReadyException;
import io.mtables.ddl.security.Principals;
import io.mtables.schemas.ddl.StatementError;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The Flink cluster as the job manager last reported it: task slots used, free and kept for
 * refreshes, the tables waiting for slots, our jobs with links to Flink's web UI. Tables are named
 * only to a caller who may see them, as SHOW decides, so the active instance (which holds the
 * catalog and the grants) answers; a standby answers 503.
 */
@Authenticated
@Path("/api/v1/cluster")
public class ClusterResource {

    private final ClusterStatusProjection cluster;
    private final DdlRuntime runtime;
    private final SecurityIdentity caller;

    public ClusterResource(
            ClusterStatusProjection cluster, DdlRuntime runtime, SecurityIdentity caller) {
        this.cluster = cluster;
        this.runtime = runtime;
        this.caller = caller;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The Flink cluster",
            description =
                    "Task slots (total, used, free, kept for FULL refreshes), TaskManagers, the"
                        + " tables whose streaming job waits for slots (in the order they start)"
                        + " and our jobs (table, STREAMING or REFRESH, Flink's state, job id, a"
                        + " link to Flink's web UI), as the job manager last reported them"
                        + " (observedAt). Tables the caller may not see are counted, not named. 503"
                        + " on a standby, or before the job manager's first report.")
    public ClusterView cluster() {
        if (runtime.standingBy() || runtime.catalog().isEmpty()) {
            throw notReady(
                    "The cluster is shown by the active instance; this one "
                            + (runtime.standingBy()
                                    ? "stands by."
                                    : "is reading its catalog back."));
        }
        var status =
                cluster.latest()
                        .orElseThrow(
                                () ->
                                        notReady(
                                                "The job manager has not reported the cluster yet"
                                                        + " (it does at its first look at Flink,"
                                                        + " on mt.cluster.status)."));
        String principal = Principals.of(caller);
        return ClusterView.of(status, table -> sees(principal, table));
    }

    private boolean sees(String principal, String table) {
        try {
            return runtime.withService(service -> service.sees(principal, table));
        } catch (ServiceNotReadyException reloading) {
            return false; // the catalog is being read back: named again at the next request
        }
    }

    private static WebApplicationException notReady(String message) {
        return new WebApplicationException(
                Problems.of(
                        StatementError.of(
                                "ServiceNotReady",
                                message,
                                "the request again (another instance, or in a moment)"),
                        null));
    }
}
