package io.mtables.ddl.api;

import io.mtables.schemas.cluster.ClusterStatus;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * The cluster as one caller may see it ({@code GET /api/v1/cluster}): every slot count, but only
 * the queued tables and jobs of tables the caller may see by name; the others are counted.
 *
 * @param slotsTotal every slot of the registered TaskManagers
 * @param slotsUsed slots a job holds
 * @param slotsFree slots no job holds
 * @param slotsReserved slots streaming jobs leave free for FULL refreshes
 * @param taskManagers TaskManagers registered
 * @param queuedTables tables whose streaming job waits for slots, in the order they will start
 * @param otherQueuedTables queued tables the caller may not see
 * @param jobs our jobs on the cluster, by table
 * @param otherJobs jobs of tables the caller may not see
 * @param flinkWebUrl Flink's web UI; null when it is not reachable from outside
 * @param observedAt when the job manager looked
 */
public record ClusterView(
        int slotsTotal,
        int slotsUsed,
        int slotsFree,
        int slotsReserved,
        int taskManagers,
        List<String> queuedTables,
        int otherQueuedTables,
        List<Job> jobs,
        int otherJobs,
        String flinkWebUrl,
        Instant observedAt) {

    /**
     * @param flinkUrl the job's page in Flink's web UI; null without one
     */
    public record Job(
            String table,
            ClusterStatus.Kind kind,
            String state,
            String jobId,
            String jobName,
            String flinkUrl) {}

    static ClusterView of(ClusterStatus status, Predicate<String> sees) {
        List<String> queued = status.queuedTables().stream().filter(sees).toList();
        List<Job> jobs =
                status.jobs().stream()
                        .filter(job -> sees.test(job.table()))
                        .map(
                                job ->
                                        new Job(
                                                job.table(),
                                                job.kind(),
                                                job.state(),
                                                job.jobId(),
                                                job.jobName(),
                                                status.flinkWebUrl() == null
                                                        ? null
                                                        : status.flinkWebUrl().replaceAll("/+$", "")
                                                                + "/#/job/running/"
                                                                + job.jobId()
                                                                + "/overview"))
                        .toList();
        return new ClusterView(
                status.slotsTotal(),
                status.slotsTotal() - status.slotsFree(),
                status.slotsFree(),
                status.slotsReserved(),
                status.taskManagers(),
                queued,
                status.queuedTables().size() - queued.size(),
                jobs,
                status.jobs().size() - jobs.size(),
                status.flinkWebUrl(),
                status.observedAt());
    }
}
