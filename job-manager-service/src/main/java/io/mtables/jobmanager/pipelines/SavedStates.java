package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.schemas.catalog.TableDefinition;
import java.util.List;
import java.util.Optional;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.jboss.logging.Logger;

/**
 * The saved state of a table's running job, read, and Flink's check of it against the new query's
 * job before that job is submitted: a restore ({@link StateRestores}, {@link RestoresBeside}) goes
 * ahead only when every operator holding state in it has an operator in the new job.
 */
final class SavedStates {

    private static final Logger LOG = Logger.getLogger(SavedStates.class);

    private final JobSubmitter submitter;
    private final Locations locations;
    private final JobManagerConfig config;

    SavedStates(JobSubmitter submitter, Locations locations, JobManagerConfig config) {
        this.submitter = submitter;
        this.locations = locations;
        this.config = config;
    }

    /** A savepoint or checkpoint, and what its {@code _metadata} says it holds. */
    record SavedState(String path, CheckpointMetadata metadata) {}

    /** A savepoint, read. */
    SavedState read(String path) {
        return new SavedState(path, locations.metadataOf(path));
    }

    /**
     * The running job's newest completed checkpoint, read. Flink keeps only the newest, so the next
     * one may discard it between finding and reading it: then it is looked for again (three tries).
     * Empty when the job has none yet or none could be read (the savepoint is checked instead).
     */
    Optional<SavedState> latestCheckpoint(Pipeline pipeline, String jobId, String query) {
        RuntimeException unread = null;
        for (int tries = 0; tries < 3; tries++) {
            try {
                Optional<String> path = locations.latestCheckpoint(pipeline.table, query, jobId);
                if (path.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(read(path.get()));
            } catch (RuntimeException e) {
                unread = e;
            }
        }
        LOG.infof(
                "%s: the restore is checked against the savepoint, no checkpoint of job %s being"
                        + " readable: %s",
                pipeline.table, jobId, PipelineReports.rootMessage(unread));
        return Optional.empty();
    }

    /**
     * Why Flink would refuse to restore {@code state} into the new query's job writing {@code
     * target}, in words: some operator holding state in it has no operator there (checked as Flink
     * does at a job's start). Empty when Flink would restore it.
     */
    Optional<String> refusal(Pipeline pipeline, SavedState state, String target) {
        TableDefinition definition = pipeline.definition;
        List<String> orphans =
                submitter.stateWithoutOperator(
                        definition,
                        pipeline.plan,
                        JobOptions.streaming(
                                definition, pipeline.plan, config, locations, state.path()),
                        state.metadata(),
                        target);
        if (orphans.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                "Flink would not restore the old query's state into the new query's job: the state"
                        + " of "
                        + String.join(", ", orphans)
                        + " has no operator there (the table's jobs name their operators as Flink"
                        + " does, which differs between the two queries)");
    }
}
