package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.jobs.WrittenRowsRewrites;
import io.mtables.jobmanager.pipelines.SavedStates.SavedState;
import io.mtables.schemas.catalog.TableDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jboss.logging.Logger;

/**
 * A COMPATIBLE change restored beside the table (docs/evolution.md): the old job takes a savepoint
 * and goes on serving the table; the rows it had written by that savepoint (the Paimon snapshot
 * committed under its id) are rewritten into the new query's in a staged table; the new query's job
 * starts from the savepoint into the staged table, its sources going on from the savepoint's
 * positions; once it has caught up, the switch-over's switch ({@link SwitchOvers}) puts it under
 * the table's name. Readers wait only for that switch, not for the rewrite, which grows with the
 * table. It needs task slots for the new job beside the old one; without them the change is
 * restored in place ({@link StateRestores}).
 */
final class RestoresBeside {

    private static final Logger LOG = Logger.getLogger(RestoresBeside.class);

    /**
     * After a checkpoint that followed the savepoint completed, how long until a savepoint not seen
     * in Paimon's snapshots is taken to have written nothing: Paimon commits with that checkpoint's
     * notification, which follows its completion at once.
     */
    static final Duration NOTHING_WRITTEN_AFTER = Duration.ofSeconds(5);

    /**
     * How long the savepoint's rows may take to show in Paimon's snapshots, beyond a checkpoint
     * interval.
     */
    static final Duration SAVED_ROWS_PATIENCE = Duration.ofMinutes(2);

    /** Flink's option to start a job from saved state some of whose operators it lacks. */
    static final String IGNORE_UNCLAIMED_STATE = "execution.state-recovery.ignore-unclaimed-state";

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final PaimonSnapshots snapshots;
    private final WrittenRowsRewrites rewrites;
    private final Locations locations;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final StreamingJobs streaming;
    private final SwitchOvers switchOvers;
    private final SavedStates savedStates;

    RestoresBeside(
            FlinkTarget flink,
            JobSubmitter submitter,
            PaimonSnapshots snapshots,
            Locations locations,
            JobManagerConfig config,
            PipelineReports reports,
            StreamingJobs streaming,
            SwitchOvers switchOvers) {
        this.flink = flink;
        this.submitter = submitter;
        this.snapshots = snapshots;
        this.rewrites = new WrittenRowsRewrites(flink, locations.warehouse());
        this.locations = locations;
        this.config = config;
        this.reports = reports;
        this.streaming = streaming;
        this.switchOvers = switchOvers;
        this.savedStates = new SavedStates(submitter, locations, config);
    }

    /** Whether the new query's job would find task slots beside the old one's. */
    boolean fits(Pipeline pipeline) {
        return streaming.fits(
                JobOptions.streaming(pipeline.definition, pipeline.plan, config, locations, null));
    }

    /**
     * Fills the staged table from the old job's state, the old job serving the table meanwhile, and
     * starts the new query's job from that state into it. False when a step failed: reported, and
     * tried again (from the sources when the restore itself was refused or failed).
     */
    boolean restore(Pipeline pipeline) {
        String staged = JobSql.stagedTable(pipeline.table, pipeline.definition.version());
        SavedState saved;
        try {
            saved = fillStaged(pipeline, staged);
        } catch (NotNow e) {
            dropStaged(pipeline);
            reports.notice(pipeline, pipeline.streamingJobId, e.getMessage());
            return false;
        } catch (Refused e) {
            return giveUp(pipeline, e.getMessage());
        } catch (RuntimeException e) {
            return giveUp(
                    pipeline,
                    "the rows the old query wrote could not be rewritten into the new query's"
                            + " staged table: "
                            + PipelineReports.rootMessage(e));
        }
        Map<String, String> options =
                JobOptions.streaming(
                        pipeline.definition, pipeline.plan, config, locations, saved.path());
        // The old job's writer state is the table's own Paimon table's: the staged table's writer
        // starts without it (its operators are another writer generation's).
        options.put(IGNORE_UNCLAIMED_STATE, "true");
        String jobId;
        try {
            jobId =
                    submitter
                            .submitStreaming(pipeline.definition, pipeline.plan, options, staged)
                            .getJobID()
                            .toHexString();
        } catch (RuntimeException e) {
            return giveUp(
                    pipeline,
                    "the new query's job could not be started from the old query's state: "
                            + PipelineReports.rootMessage(e));
        }
        switchOvers.staged(pipeline, jobId, null, saved.path());
        return true;
    }

    /**
     * The staged table, created and filled with the rows the old job had written by a savepoint
     * taken while it goes on: that savepoint.
     *
     * @throws Refused when Flink would not take the old state into the new job
     * @throws NotNow when the savepoint cannot be had now
     */
    private SavedState fillStaged(Pipeline pipeline, String staged) {
        TableDefinition definition = pipeline.definition;
        String oldJob = pipeline.streamingJobId;
        List<String> oldColumns = submitter.tables().columns(pipeline.table);
        submitter.tables().createStaged(definition, pipeline.plan);
        // Checked before the savepoint when the running job has a checkpoint: the same operators
        // hold state in both.
        boolean checked = checkpointChecked(pipeline, oldJob, staged);
        long before =
                snapshots
                        .latest(pipeline.table)
                        .map(PaimonSnapshots.CommittedSnapshot::id)
                        .orElse(0L);
        OptionalLong restarts = flink.restarts(oldJob);
        SavedState saved = savepoint(pipeline, oldJob);
        if (!checked) {
            Optional<String> refused = savedStates.refusal(pipeline, saved, staged);
            if (refused.isPresent()) {
                throw new Refused(
                        refused.get() + " (seen in its savepoint, taken with the job going on)");
            }
        }
        long snapshot = savedSnapshot(pipeline, oldJob, before, saved.metadata().getCheckpointId());
        OptionalLong restartsSince = flink.restarts(oldJob);
        if (restarts.isPresent()
                && restartsSince.isPresent()
                && restarts.getAsLong() != restartsSince.getAsLong()) {
            // Restarted from an older checkpoint, it may have lost the savepoint's files before
            // committing them, and written them again under later ids.
            throw new NotNow(
                    "the job of v"
                            + pipeline.streamingJobVersion
                            + " restarted while its savepoint for the new query was committed; it"
                            + " keeps serving the table, and the change is tried again");
        }
        if (snapshot > 0) {
            rewrites.run(
                    rewrites.compile(
                            definition,
                            pipeline.plan,
                            definition.queryChange().writtenRows(),
                            oldColumns,
                            JobOptions.rewrite(definition, config),
                            snapshot,
                            staged),
                    StateRestores.REWRITE_TIMEOUT);
        }
        LOG.infof(
                "%s v%d: the staged table holds snapshot %d of v%d rewritten; its job goes on from"
                        + " %s",
                pipeline.table,
                definition.version(),
                snapshot,
                pipeline.streamingJobVersion,
                saved.path());
        return saved;
    }

    /**
     * Whether Flink's check ran against the running job's latest checkpoint (false: it has none, or
     * it could not be read; the savepoint is checked instead).
     *
     * @throws Refused when Flink would not take that state into the new job
     */
    private boolean checkpointChecked(Pipeline pipeline, String oldJob, String staged) {
        Optional<SavedState> checkpoint =
                savedStates.latestCheckpoint(pipeline, oldJob, pipeline.streamingJobQuery);
        if (checkpoint.isEmpty()) {
            return false;
        }
        Optional<String> refused;
        try {
            refused = savedStates.refusal(pipeline, checkpoint.get(), staged);
        } catch (RuntimeException e) {
            LOG.infof(
                    "%s: the restore is checked against the savepoint instead of checkpoint %s: %s",
                    pipeline.table, checkpoint.get().path(), PipelineReports.rootMessage(e));
            return false;
        }
        if (refused.isPresent()) {
            throw new Refused(
                    refused.get()
                            + " (seen in the running job's latest checkpoint: the job was not"
                            + " stopped)");
        }
        return true;
    }

    /**
     * A savepoint of the old job, which goes on, into the new query's savepoint directory.
     *
     * @throws NotNow when Flink could not take one
     */
    private SavedState savepoint(Pipeline pipeline, String oldJob) {
        try {
            return savedStates.read(
                    flink.triggerSavepoint(
                            oldJob, locations.savepointDir(pipeline.definition).orElseThrow()));
        } catch (RuntimeException e) {
            throw new NotNow(
                    "cannot take a savepoint of the job of v"
                            + pipeline.streamingJobVersion
                            + " for its new query: "
                            + PipelineReports.rootMessage(e)
                            + "; it keeps serving the table, and the change is tried again");
        }
    }

    /**
     * The table's snapshot that holds the rows the savepoint's state wrote: Paimon commits the
     * savepoint's own files with the job's next checkpoint, asked for at once.
     *
     * @param before the table's latest snapshot before the savepoint was asked for
     * @throws IllegalStateException when they do not show in time
     */
    private long savedSnapshot(Pipeline pipeline, String oldJob, long before, long savepointId) {
        flink.triggerCheckpoint(oldJob); // refused or failed: the periodic one commits them
        long deadline =
                System.nanoTime()
                        + SAVED_ROWS_PATIENCE.plus(pipeline.plan.checkpointInterval()).toNanos();
        long laterCheckpointAt = 0;
        while (true) {
            PaimonSnapshots.SavedSnapshot saved =
                    snapshots.savedBy(pipeline.table, before, savepointId);
            if (saved.confirmed()) {
                return saved.snapshotId();
            }
            long now = System.nanoTime();
            if (laterCheckpointAt == 0
                    && flink.completedCheckpoints(oldJob).keySet().stream()
                            .anyMatch(id -> id > savepointId)) {
                laterCheckpointAt = now;
            }
            if (laterCheckpointAt != 0
                    && now - laterCheckpointAt > NOTHING_WRITTEN_AFTER.toNanos()) {
                return saved.snapshotId(); // the savepoint wrote nothing of its own
            }
            if (now > deadline) {
                throw new IllegalStateException(
                        "the rows of savepoint "
                                + savepointId
                                + " did not show in Paimon's snapshots");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the savepoint's rows", e);
            }
        }
    }

    /**
     * Reported, the staged table dropped, this version's restore not tried again: a switch-over
     * from the sources carries the change out, the old job serving the table meanwhile.
     */
    private boolean giveUp(Pipeline pipeline, String why) {
        pipeline.restoreGivenUp = pipeline.definition.version();
        dropStaged(pipeline);
        reports.notice(
                pipeline,
                null,
                why
                        + "; a switch-over from the sources carries the change out instead, the old"
                        + " query serving the table meanwhile");
        LOG.warnf("%s: restore given up: %s", pipeline.table, why);
        return false;
    }

    /** Drops the staged table; one left behind is replaced by the next try. */
    private void dropStaged(Pipeline pipeline) {
        try {
            submitter.tables().dropStaged(pipeline.table, pipeline.definition.version());
        } catch (RuntimeException e) {
            LOG.warnf(
                    "the staged table of %s stays until the next try replaces it: %s",
                    pipeline.table, PipelineReports.rootMessage(e));
        }
    }

    /** Flink would not take the old state into the new job: the restore is given up. */
    private static final class Refused extends RuntimeException {
        Refused(String why) {
            super(why);
        }
    }

    /** A step cannot be taken now: the change is tried again, the old job serving. */
    private static final class NotNow extends RuntimeException {
        NotNow(String why) {
            super(why);
        }
    }
}
