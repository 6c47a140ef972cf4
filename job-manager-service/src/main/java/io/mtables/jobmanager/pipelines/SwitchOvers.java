package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.BridgedHistory;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A new query of a CONTINUOUS table without a moment of an empty or half-filled table (seed 004's
 * switch-over): the new query's job fills a staged Paimon table ({@link JobSql#stagedTable}) from
 * the sources while the old job keeps serving the table; once the new job has read everything its
 * sources held, the old job is cancelled, the new one, having read everything since, stops with a
 * savepoint (so the new table holds at least what the old one last committed), the staged table
 * takes the table's name (two renames in the warehouse, so every reader of the name, ours, Flink's
 * or Paimon's, moves at once), and the new job goes on from its savepoint into it.
 */
final class SwitchOvers {

    private static final Logger LOG = Logger.getLogger(SwitchOvers.class);

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final PaimonSnapshots snapshots;
    private final Locations locations;
    private final JobManagerConfig config;
    private final PipelineReports reports;
    private final StreamingJobs streaming;
    private final Clock clock;
    private final Consumer<String> rowsReplaced;
    private final SwitchBridges bridges;
    private final StagingProgress progress;

    /**
     * @param rowsReplaced told the table's name once another table is under it (its readers cannot
     *     go on from where they were)
     */
    SwitchOvers(
            FlinkTarget flink,
            JobSubmitter submitter,
            PaimonSnapshots snapshots,
            Locations locations,
            JobManagerConfig config,
            PipelineReports reports,
            StreamingJobs streaming,
            Clock clock,
            Consumer<String> rowsReplaced) {
        this.flink = flink;
        this.submitter = submitter;
        this.snapshots = snapshots;
        this.locations = locations;
        this.config = config;
        this.reports = reports;
        this.streaming = streaming;
        this.clock = clock;
        this.rowsReplaced = rowsReplaced;
        this.progress = new StagingProgress(flink, snapshots, config, reports, clock);
        this.bridges = new SwitchBridges(new BridgedHistory(submitter)::bridge, config, reports);
    }

    /**
     * Whether the table's new query is switched to rather than rebuilt in place: the table holds
     * the rows of another query that readers keep reading meanwhile. A table with no rows yet, or
     * written by this very query, has nothing to keep.
     */
    boolean wanted(Pipeline pipeline) {
        Optional<String> writtenBy = submitter.tables().writtenBy(pipeline.table);
        return writtenBy.isPresent()
                && !writtenBy.get().equals(QueryState.fingerprint(pipeline.definition))
                && snapshots.latest(pipeline.table).isPresent();
    }

    /**
     * Whether the table was marked for a rebuild because an input's rows were replaced ({@link
     * ReplacedInputs}): its job, if one still runs, reads from where the old rows were.
     */
    boolean inputReplaced(Pipeline pipeline) {
        return snapshots
                .option(pipeline.table, QueryState.TABLE_OPTION)
                .filter(QueryState::isInputReplaced)
                .isPresent();
    }

    /**
     * Finishes the renames of a switch-over a crash cut short between them: the table's name names
     * no table, and the staged table of this version is there. Its job then starts from its query's
     * newest state, the savepoint it stopped with.
     */
    void finishRenames(Pipeline pipeline) {
        String staged = JobSql.stagedTable(pipeline.table, pipeline.definition.version());
        if (!snapshots.exists(pipeline.table) && snapshots.exists(staged)) {
            submitter.tables().swapInStaged(pipeline.table, pipeline.definition.version());
            snapshots.forget(pipeline.table);
            LOG.infof(
                    "finished the renames of the switch-over of %s to v%d",
                    pipeline.table, pipeline.definition.version());
        }
    }

    /**
     * Starts the new query's job into a new staged table, beside the running one. False when it
     * could not be started (reported; the plan is tried again).
     */
    boolean begin(Pipeline pipeline) {
        TableDefinition definition = pipeline.definition;
        String staged = JobSql.stagedTable(pipeline.table, definition.version());
        try {
            Map<String, String> options =
                    JobOptions.streaming(definition, pipeline.plan, config, locations, null);
            if (!streaming.fits(options)) {
                reports.notice(
                        pipeline,
                        pipeline.streamingJobId,
                        "the new query waits for task slots to run beside the old one until the"
                                + " switch-over; the old query keeps serving the table meanwhile");
                return false;
            }
            String replacedInput =
                    submitter
                            .tables()
                            .writtenBy(pipeline.table)
                            .flatMap(QueryState::replacedInput)
                            .orElse(null);
            submitter.tables().createStaged(definition, pipeline.plan);
            String jobId =
                    submitter
                            .submitStreaming(definition, pipeline.plan, options, staged)
                            .getJobID()
                            .toHexString();
            staged(pipeline, jobId, replacedInput, null);
            return true;
        } catch (RuntimeException e) {
            reports.notice(
                    pipeline,
                    null,
                    "cannot start the new query beside the old one, which keeps serving the table: "
                            + PipelineReports.rootMessage(e));
            return false;
        }
    }

    /**
     * The staging job {@code jobId} fills the staged table, the old job serving the table: watched
     * from now on ({@link #watch}), and announced.
     *
     * @param restoredFrom the old query's savepoint the job started from, or null
     */
    void staged(Pipeline pipeline, String jobId, String replacedInput, String restoredFrom) {
        TableDefinition definition = pipeline.definition;
        String staged = JobSql.stagedTable(pipeline.table, definition.version());
        long from = pipeline.streamingJobVersion;
        pipeline.staging = new Pipeline.Staging(jobId, definition.version(), from, clock.instant());
        pipeline.staging.restoredFrom = restoredFrom;
        var change = definition.queryChange();
        reports.events()
                .switchStarted(
                        new SwitchStarted(
                                pipeline.table,
                                definition.version(),
                                from,
                                change == null ? null : change.verdict().name(),
                                jobId,
                                JobSql.streamingJobName(definition),
                                staged,
                                clock.instant(),
                                replacedInput,
                                restoredFrom));
        LOG.infof(
                "switch-over of %s to v%d: job %s fills %s%s while v%d serves readers",
                pipeline.table,
                definition.version(),
                jobId,
                staged,
                restoredFrom == null
                        ? ""
                        : " from the state of v" + from + " (" + restoredFrom + ")",
                from);
    }

    /**
     * A staging job found on the cluster at start: the switch-over goes on (the old version is not
     * known any more).
     */
    void attach(Pipeline pipeline, FlinkJob job, long version) {
        pipeline.staging = new Pipeline.Staging(job.id(), version, 0, clock.instant());
        LOG.infof(
                "re-attached to job %s filling the staged table of %s v%d",
                job.id(), pipeline.table, version);
    }

    /** Gives up the staging of an older version (a newer one replaces it): its job and table go. */
    void abandon(Pipeline pipeline) {
        Pipeline.Staging staging = pipeline.staging;
        if (streaming.running(staging.jobId)) {
            flink.cancel(staging.jobId);
        }
        pipeline.staging = null;
        try {
            submitter.tables().dropStaged(pipeline.table, staging.version);
        } catch (RuntimeException e) {
            reports.notice(
                    pipeline,
                    staging.jobId,
                    "the staged table of the abandoned switch-over to v"
                            + staging.version
                            + " could not be dropped ("
                            + PipelineReports.rootMessage(e)
                            + "); it stays in the warehouse, unread: "
                            + JobSql.stagedTable(pipeline.table, staging.version));
        }
        LOG.infof("gave up the switch-over of %s to v%d", pipeline.table, staging.version);
    }

    /**
     * Looks at the staging job: switches once it has caught up; a job Flink gave up on is reported
     * (the old query goes on serving) and the switch-over is started again after the plan's
     * back-off.
     *
     * @return false when the switch-over failed and must be started again
     */
    boolean watch(Pipeline pipeline, FlinkJob job) {
        Pipeline.Staging staging = pipeline.staging;
        if (staging == null) {
            return true;
        }
        if (staging.savepoint != null) {
            return finish(
                    pipeline); // a switch cut short after the savepoint: its renames and start are
            // done again
        }
        if (job == null || job.ended()) {
            String cause =
                    job == null
                            ? "the cluster lost it"
                            : flink.failureCause(staging.jobId)
                                    .orElse("it ended (" + job.state() + ")");
            giveUp(
                    pipeline,
                    "the new query's job stopped before the switch ("
                            + cause
                            + "); "
                            + (staging.oldStoppedAt == null
                                    ? "the old query keeps serving the table"
                                    : "the table keeps the old query's rows")
                            + " and the switch-over starts again");
            return false;
        }
        if (!"RUNNING".equals(job.state())) {
            return true;
        }
        if (staging.oldStoppedAt == null) {
            if (!progress.caughtUp(pipeline, staging)) {
                return true;
            }
            // The old job stops first: the new table, saved after this, then holds at least what
            // the old one last committed.
            staging.switchBegan = clock.instant();
            streaming.stop(pipeline, null);
            staging.oldStoppedAt = clock.instant();
            progress.awaitMetricsAfter(staging.oldStoppedAt);
        }
        if (!progress.readEverythingSince(staging, staging.oldStoppedAt)) {
            return true;
        }
        try {
            staging.savepoint =
                    flink.stopWithSavepoint(
                            staging.jobId,
                            locations
                                    .savepointDir(pipeline.definition)
                                    .orElseThrow(
                                            () ->
                                                    new IllegalStateException(
                                                            "a switch-over needs a savepoint"
                                                                + " directory"
                                                                + " (mt.flink.savepoint-dir)")));
        } catch (RuntimeException e) {
            reports.notice(
                    pipeline,
                    staging.jobId,
                    "the switch-over could not save the new query's state ("
                            + PipelineReports.rootMessage(e)
                            + "); the old query keeps serving the table and the switch is tried"
                            + " again");
            return true;
        }
        return finish(pipeline);
    }

    /**
     * The switch itself, once the new job stopped with its savepoint: the old job cancelled, the
     * renames, the new job started from the savepoint into the table. Each step can be done again,
     * so a failure leaves it to the next look.
     */
    private boolean finish(Pipeline pipeline) {
        Pipeline.Staging staging = pipeline.staging;
        Instant saved = clock.instant();
        streaming.stop(
                pipeline,
                null); // stopped already, unless this service restarted since: the old query's
        // state has no future
        SwitchBridges.Outcome bridged = bridges.bridge(pipeline, inputReplaced(pipeline));
        if (bridged instanceof SwitchBridges.Outcome.GiveUp givenUp) {
            giveUp(pipeline, givenUp.reason());
            return false; // started again after the back-off
        }
        if (bridged instanceof SwitchBridges.Outcome.TryAgain) {
            return true; // looked at again, the old rows serving meanwhile
        }
        long gapNanos;
        try {
            gapNanos = submitter.tables().swapInStaged(pipeline.table, staging.version);
        } catch (RuntimeException e) {
            reports.notice(
                    pipeline,
                    null,
                    "the switch-over's renames failed ("
                            + PipelineReports.rootMessage(e)
                            + "); they are tried again");
            return true;
        }
        snapshots.forget(pipeline.table);
        Instant switchedAt = clock.instant();
        pipeline.lastSnapshotId =
                0; // the table's snapshots are the new query's now, numbered from its own first
        pipeline.lastSnapshotAt = null;
        pipeline.staging = null;
        rowsReplaced.accept(pipeline.table);
        reports.events()
                .switchedOver(
                        new SwitchedOver(
                                pipeline.table,
                                staging.version,
                                staging.fromVersion,
                                staging.savepoint,
                                staging.since,
                                switchedAt,
                                gapNanos / 1_000_000.0,
                                staging.bridged));
        // A start that fails is applied again, and then starts from the newest state of the query:
        // this savepoint.
        boolean started = streaming.start(pipeline, staging.savepoint);
        pipeline.checkpointAsap =
                started; // readers wait for its first commit: not a checkpoint interval later
        // Where the time of the switch goes (bin/bench evolution): the readers' wait for new data
        // is all of it plus the new job's first checkpoint.
        LOG.infof(
                "switched %s over to v%d: the old job stopped to the new query's savepoint %d ms,"
                    + " the renames %.1f ms (the name named no table), the job submitted %d ms; it"
                    + " goes on from %s",
                pipeline.table,
                staging.version,
                staging.switchBegan == null
                        ? -1
                        : Duration.between(staging.switchBegan, saved).toMillis(),
                gapNanos / 1e6,
                Duration.between(switchedAt, clock.instant()).toMillis(),
                staging.savepoint);
        return started;
    }

    /**
     * Reported, the staged table dropped: the old query serves on, and the switch-over starts again
     * after the plan's back-off. Not counted towards suspension: the table itself still runs.
     */
    private void giveUp(Pipeline pipeline, String reason) {
        Pipeline.Staging staging = pipeline.staging;
        pipeline.staging = null;
        if (staging.restoredFrom != null) {
            // Flink did not take the old state, or the job failed with it: the next try reads the
            // sources from their start.
            pipeline.restoreGivenUp = staging.version;
            reason +=
                    "; it had started from the old query's state, so the next try reads the"
                            + " sources from their start";
        }
        reports.notice(pipeline, staging.jobId, reason);
        try {
            submitter.tables().dropStaged(pipeline.table, staging.version);
        } catch (RuntimeException e) {
            LOG.warnf(
                    "the staged table of %s v%d stays until the next try replaces it: %s",
                    pipeline.table, staging.version, PipelineReports.rootMessage(e));
        }
    }
}
