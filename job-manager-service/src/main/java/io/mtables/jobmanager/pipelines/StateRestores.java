package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.jobmanager.jobs.WrittenRowsRewrites;
import io.mtables.jobmanager.pipelines.SavedStates.SavedState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.QueryChange;
import io.mtables.schemas.catalog.TableDefinition.Verdict;
import io.mtables.schemas.refresh.StateRestored;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A COMPATIBLE change of a CONTINUOUS table's query: restored beside the table ({@link
 * RestoresBeside}) when the new job finds task slots beside the old one, else carried out in place
 * (docs/evolution.md): the running job stops with a savepoint, the rows it wrote are rewritten into
 * the new query's ({@link QueryChange#writtenRows}, one commit), and the new query's job starts
 * from the savepoint, its sources going on where the old job stopped. Should Flink not restore the
 * state into the new job (the savepoint holds state of an operator the new job lacks, as Flink
 * checks at the job's start; or the job fails before its first checkpoint), or the rewrite fail,
 * the restore is given up: the table is marked its old query's again and a switch-over ({@link
 * SwitchOvers}) carries the change out from the sources.
 */
final class StateRestores {

    private static final Logger LOG = Logger.getLogger(StateRestores.class);

    /** How long the rewrite of the written rows, one batch job, may take. */
    static final Duration REWRITE_TIMEOUT = Duration.ofMinutes(10);

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final WrittenRowsRewrites rewrites;
    private final Locations locations;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final StreamingJobs streaming;
    private final Clock clock;
    private final Consumer<String> rowsReplaced;
    private final SavedStates savedStates;
    private final RestoresBeside beside;

    /**
     * @param rowsReplaced told the table's name once its written rows were rewritten (an overwrite,
     *     which its streaming readers do not follow)
     */
    StateRestores(
            FlinkTarget flink,
            JobSubmitter submitter,
            Locations locations,
            JobManagerConfig config,
            PipelineReports reports,
            StreamingJobs streaming,
            Clock clock,
            Consumer<String> rowsReplaced,
            PaimonSnapshots snapshots,
            SwitchOvers switchOvers) {
        this.flink = flink;
        this.submitter = submitter;
        this.rewrites = new WrittenRowsRewrites(flink, locations.warehouse());
        this.locations = locations;
        this.config = config;
        this.reports = reports;
        this.streaming = streaming;
        this.clock = clock;
        this.rowsReplaced = rowsReplaced;
        this.savedStates = new SavedStates(submitter, locations, config);
        this.beside =
                new RestoresBeside(
                        flink,
                        submitter,
                        snapshots,
                        locations,
                        config,
                        reports,
                        streaming,
                        switchOvers);
    }

    /**
     * Whether the table's new query goes on from the running job's state: ddl-service judged the
     * change COMPATIBLE and found how to rewrite the written rows, the job running is the one of
     * the version the change replaced, savepoints are enabled, and no restore of this version was
     * given up.
     */
    boolean wanted(Pipeline pipeline) {
        TableDefinition definition = pipeline.definition;
        QueryChange change = definition.queryChange();
        return change != null
                && change.verdict() == Verdict.COMPATIBLE
                && change.writtenRows() != null
                && pipeline.restoreGivenUp != definition.version()
                && pipeline.streamingJobId != null
                && pipeline.streamingJobVersion == change.fromVersion()
                && locations.savepointDir(definition).isPresent()
                && streaming.running(pipeline.streamingJobId);
    }

    /**
     * Appends the new columns, checks that Flink would restore the old job's state into the new
     * query's job (against the running job's latest checkpoint, else its savepoint), stops the old
     * job with a savepoint, rewrites the written rows and starts the new query's job from the
     * savepoint. False when a step failed (reported; tried again, as a switch-over when the rewrite
     * failed).
     */
    boolean restore(Pipeline pipeline) {
        if (beside.fits(pipeline)) {
            return beside.restore(pipeline); // readers then wait only for the switch
        }
        TableDefinition definition = pipeline.definition;
        QueryChange change = definition.queryChange();
        String oldJob = pipeline.streamingJobId;
        String oldQuery = pipeline.streamingJobQuery;
        // The new columns first, while the old job runs: Paimon commits its files of the older
        // schema all the same (NULL in the new columns), and the new job's graph, checked next,
        // writes them.
        List<String> oldColumns;
        try {
            oldColumns = submitter.tables().appendColumns(definition, pipeline.plan);
        } catch (RuntimeException e) {
            giveUp(
                    pipeline,
                    oldQuery,
                    "the new query's columns could not be appended to the table: "
                            + PipelineReports.rootMessage(e));
            return false;
        }
        // Checked against the running job's latest checkpoint before it stops: its savepoint holds
        // state of the same operators, so a refusal leaves it running, and the check is not part
        // of the readers' wait.
        Optional<SavedState> checkpoint = savedStates.latestCheckpoint(pipeline, oldJob, oldQuery);
        if (checkpoint.isPresent()) {
            try {
                if (refusedBy(
                        pipeline,
                        oldQuery,
                        checkpoint.get(),
                        " (seen in the running job's latest checkpoint: the job was not"
                                + " stopped)")) {
                    return false;
                }
            } catch (RuntimeException e) {
                LOG.infof(
                        "%s: the restore is checked against the savepoint instead of checkpoint"
                                + " %s: %s",
                        pipeline.table, checkpoint.get().path(), PipelineReports.rootMessage(e));
                checkpoint = Optional.empty();
            }
        }
        // Compiled while the old job still serves the table: readers wait only for its run.
        WrittenRowsRewrites.Compiled rewrite;
        try {
            rewrite =
                    rewrites.compile(
                            definition,
                            pipeline.plan,
                            change.writtenRows(),
                            oldColumns,
                            JobOptions.rewrite(definition, config));
        } catch (RuntimeException e) {
            giveUp(
                    pipeline,
                    oldQuery,
                    "the rewrite of the rows the old query wrote into the new query's does not"
                            + " compile: "
                            + PipelineReports.rootMessage(e)
                            + " (the job was not stopped)");
            return false;
        }
        Instant stoppedAt = clock.instant();
        String savepoint;
        try {
            // Into the new query's directory: a restart of this service after the rewrite starts
            // the new query's job from it (Locations#latestState).
            savepoint =
                    flink.stopWithSavepoint(
                            oldJob, locations.savepointDir(definition).orElseThrow());
        } catch (RuntimeException e) {
            reports.notice(
                    pipeline,
                    oldJob,
                    "cannot stop the job of v"
                            + change.fromVersion()
                            + " with a savepoint for its new query: "
                            + PipelineReports.rootMessage(e)
                            + "; it keeps serving the table");
            return false;
        }
        pipeline.streamingJobId = null;
        try {
            if (checkpoint.isEmpty()
                    && refusedBy(pipeline, oldQuery, savedStates.read(savepoint), "")) {
                return false;
            }
            rewrites.run(rewrite, REWRITE_TIMEOUT);
            // Only now the new query's: a crash before leaves it the old query's, which a
            // switch-over then replaces.
            submitter.tables().markWrittenBy(pipeline.table, QueryState.fingerprint(definition));
        } catch (RuntimeException e) {
            giveUp(
                    pipeline,
                    oldQuery,
                    "the rows the old query wrote could not be rewritten into the new query's: "
                            + PipelineReports.rootMessage(e));
            return false;
        }
        pipeline.restore = new Pipeline.Restore(definition.version(), oldQuery);
        rowsReplaced.accept(pipeline.table);
        if (!streaming.start(pipeline, savepoint)) {
            return false; // tried again: the table is the new query's, its state the savepoint
        }
        // Readers wait for the restored job's first commit: asked for at once, not a checkpoint
        // interval later.
        pipeline.checkpointAsap = true;
        reports.events()
                .stateRestored(
                        new StateRestored(
                                pipeline.table,
                                definition.version(),
                                change.fromVersion(),
                                savepoint,
                                stoppedAt,
                                clock.instant()));
        LOG.infof(
                "%s v%d goes on from the state of v%d (%s); the written rows were rewritten",
                pipeline.table, definition.version(), change.fromVersion(), savepoint);
        return true;
    }

    /**
     * Whether Flink would refuse to restore {@code state} into the new query's job: some operator
     * holding state in it has no operator there (checked as Flink does at a job's start). Then the
     * restore is given up, reported with {@code seenIn} (where the state was read).
     */
    private boolean refusedBy(Pipeline pipeline, String oldQuery, SavedState state, String seenIn) {
        Optional<String> refusal = savedStates.refusal(pipeline, state, pipeline.table);
        refusal.ifPresent(why -> giveUp(pipeline, oldQuery, why + seenIn));
        return refusal.isPresent();
    }

    /**
     * Looks at a restored job until its first checkpoint of its own completes. A job that failed
     * before then did not take the state (Flink maps it onto the new job's operators at its start,
     * and restores it in its tasks): the restore is given up. True when it was; the job is then no
     * longer the table's.
     */
    boolean watch(Pipeline pipeline, FlinkJob job) {
        Pipeline.Restore restore = pipeline.restore;
        if (restore == null
                || job == null
                || restore.version() != pipeline.streamingJobVersion
                || !job.id().equals(pipeline.streamingJobId)) {
            return false;
        }
        if (job.state().equals("RUNNING")
                && !flink.completedCheckpoints(pipeline.streamingJobId).isEmpty()) {
            pipeline.restore = null;
            return false;
        }
        if (!job.state().equals("FAILED")) {
            return false;
        }
        String cause = flink.failureCause(job.id()).orElse("the job failed");
        pipeline.streamingJobId = null;
        giveUp(
                pipeline,
                restore.oldQuery(),
                "Flink did not restore the old query's state into the new query's job "
                        + job.id()
                        + ": "
                        + cause);
        return true;
    }

    /**
     * Marks the table its old query's again, so the next try of the plan switches over from the
     * sources; reported with the reason.
     */
    private void giveUp(Pipeline pipeline, String oldQuery, String why) {
        pipeline.restore = null;
        pipeline.restoreGivenUp = pipeline.definition.version();
        String marked = "";
        try {
            submitter.tables().markWrittenBy(pipeline.table, oldQuery);
        } catch (RuntimeException e) {
            marked =
                    " (the table could not be marked its old query's: "
                            + PipelineReports.rootMessage(e)
                            + ")";
        }
        reports.notice(
                pipeline,
                null,
                why
                        + "; a switch-over from the sources carries the change out instead, the"
                        + " table keeping its rows meanwhile"
                        + marked);
        LOG.warnf("%s: restore given up: %s", pipeline.table, why);
    }
}
