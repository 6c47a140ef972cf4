package io.mtables.schemas.cluster;

import java.time.Instant;
import java.util.List;

/**
 * The Flink cluster as the active job manager saw it at its last poll ({@code ClusterStatus.v1} on
 * {@code mt.cluster.status}, keyed {@link #KEY}): its task slots, the tables waiting for slots, and
 * the jobs of ours it runs. Written when any of it changes; the console's cluster page and {@code
 * GET /api/v1/cluster} show the latest.
 *
 * @param slotsTotal every slot of the registered TaskManagers
 * @param slotsFree slots no job holds
 * @param slotsReserved slots streaming jobs leave free for FULL refreshes ({@code
 *     mt.jobs.refresh-slots})
 * @param taskManagers TaskManagers registered
 * @param queuedTables tables whose streaming job waits for slots, in the order they will start
 * @param jobs our jobs on the cluster that have not ended
 * @param flinkWebUrl where a browser reaches Flink's web UI ({@code mt.flink.web-url}); null when
 *     it is not reachable from outside
 * @param observedAt when the job manager looked
 */
public record ClusterStatus(
        int slotsTotal,
        int slotsFree,
        int slotsReserved,
        int taskManagers,
        List<String> queuedTables,
        List<Job> jobs,
        String flinkWebUrl,
        Instant observedAt) {

    /** The one key of the topic: there is one cluster. */
    public static final String KEY = "cluster";

    /**
     * One job of ours on the cluster.
     *
     * @param jobId Flink's job id
     * @param jobName its name ({@link io.mtables.schemas.flink.JobNames})
     * @param table the materialized table it runs for
     * @param kind STREAMING (a CONTINUOUS table's job) or REFRESH (one FULL refresh)
     * @param state Flink's job status (RUNNING, INITIALIZING, RESTARTING, ...)
     */
    public record Job(String jobId, String jobName, String table, Kind kind, String state) {}

    public enum Kind {
        STREAMING,
        REFRESH
    }

    /** The same cluster, ignoring when it was looked at. */
    public boolean sameAs(ClusterStatus other) {
        return other != null
                && slotsTotal == other.slotsTotal
                && slotsFree == other.slotsFree
                && slotsReserved == other.slotsReserved
                && taskManagers == other.taskManagers
                && queuedTables.equals(other.queuedTables)
                && jobs.equals(other.jobs)
                && java.util.Objects.equals(flinkWebUrl, other.flinkWebUrl);
    }
}
