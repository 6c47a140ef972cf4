package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.flink.JobNames;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/** At start, the jobs of a previous run found on the cluster, each given back to its table. */
final class JobTakeover {

    private static final Logger LOG = Logger.getLogger(JobTakeover.class);

    private final FlinkTarget flink;
    private final PaimonSnapshots snapshots;
    private final StreamingJobs streaming;
    private final SwitchOvers switchOvers;
    private final FullRefreshes refreshes;
    private final Predicate<String> mine;

    JobTakeover(
            FlinkTarget flink,
            PaimonSnapshots snapshots,
            StreamingJobs streaming,
            SwitchOvers switchOvers,
            FullRefreshes refreshes,
            Predicate<String> mine) {
        this.flink = flink;
        this.snapshots = snapshots;
        this.streaming = streaming;
        this.switchOvers = switchOvers;
        this.refreshes = refreshes;
        this.mine = mine;
    }

    /**
     * Takes over the jobs a previous run left on the cluster: a running streaming job of a table is
     * that table's job again (not a second one); a job of no known table is cancelled.
     */
    void attach(List<FlinkJob> jobs, Map<String, Pipeline> pipelines) {
        for (FlinkJob job : jobs) {
            if (job.ended() || !JobNames.isOurs(job.name())) {
                continue;
            }
            var name = JobNames.parse(job.name());
            if (name.isEmpty()) {
                LOG.warnf(
                        "leaving job %s alone: %s is not a job name this version writes",
                        job.id(), job.name());
                continue;
            }
            if (!mine.test(name.get().table())) {
                continue; // another job manager's
            }
            Pipeline pipeline = pipelines.get(name.get().table());
            if (pipeline == null) {
                LOG.warnf(
                        "cancelling job %s (%s): its table is unknown or dropped",
                        job.id(), job.name());
                flink.cancel(job.id());
                continue;
            }
            if (name.get() instanceof JobNames.Streaming streamingJob) {
                if (snapshots.exists(JobSql.stagedTable(pipeline.table, streamingJob.version()))) {
                    switchOvers.attach(
                            pipeline,
                            job,
                            streamingJob.version()); // it writes the staged table of a switch-over
                    continue;
                }
                streaming.attach(
                        pipeline, job, streamingJob.version(), streamingJob.queryFingerprint());
            } else if (name.get() instanceof JobNames.Refresh refresh) {
                refreshes.attach(pipeline, job, refresh.refreshId());
            }
        }
    }
}
