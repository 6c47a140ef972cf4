package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonTables;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.Suspended;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The steps a plan's status asks of a table's pipeline: activate (start, change, resume, restore
 * the state into a new query, or switch over to one), suspend with a savepoint, refuse, drop. Each
 * says whether it was done; one that was not is reported here and tried again by {@link
 * PipelineManager}.
 */
final class PlanSteps {

    private static final Logger LOG = Logger.getLogger(PlanSteps.class);

    private final FlinkTarget flink;
    private final JobSubmitter submitter;
    private final Locations locations;
    private final RefreshEvents events;
    private final PipelineReports reports;
    private final StreamingJobs streaming;
    private final SwitchOvers switchOvers;
    private final StateRestores restores;
    private final Clock clock;

    PlanSteps(
            FlinkTarget flink,
            JobSubmitter submitter,
            Locations locations,
            RefreshEvents events,
            PipelineReports reports,
            StreamingJobs streaming,
            SwitchOvers switchOvers,
            StateRestores restores,
            Clock clock) {
        this.flink = flink;
        this.submitter = submitter;
        this.locations = locations;
        this.events = events;
        this.reports = reports;
        this.streaming = streaming;
        this.switchOvers = switchOvers;
        this.restores = restores;
        this.clock = clock;
    }

    /** Starts or changes the table's pipeline; false when a step failed (reported, tried again). */
    boolean activate(Pipeline pipeline) {
        TableDefinition definition = pipeline.definition;
        RefreshPlan plan = pipeline.plan;
        boolean resuming = pipeline.status() == Pipeline.Status.SUSPENDED;
        String query = QueryState.fingerprint(definition);
        if (plan.mode() == Mode.CONTINUOUS
                && streaming.runs(pipeline, definition)
                && !switchOvers.inputReplaced(pipeline)) {
            return true;
        }
        if (pipeline.staging != null) {
            if (pipeline.staging.version == definition.version()) {
                return true; // the switch-over to this version is under way
            }
            switchOvers.abandon(pipeline);
        }
        if (plan.mode() == Mode.CONTINUOUS) {
            try {
                switchOvers.finishRenames(pipeline);
            } catch (RuntimeException e) {
                reports.notice(
                        pipeline,
                        null,
                        "cannot finish the switch-over's renames: "
                                + PipelineReports.rootMessage(e));
                return false;
            }
        }
        if (plan.mode() == Mode.CONTINUOUS && restores.wanted(pipeline)) {
            return restores.restore(pipeline); // the job goes on from its state, the rows rewritten
        }
        if (plan.mode() == Mode.CONTINUOUS && switchOvers.wanted(pipeline)) {
            // The table keeps its rows (and the old job, if one runs, serves it) until the new
            // query has caught up.
            if (!switchOvers.begin(pipeline)) {
                return false;
            }
            if (resuming) {
                pipeline.on(TableLifecycle.Event.RESUMED);
                events.resumed(
                        new Resumed(
                                pipeline.table,
                                definition.version(),
                                null,
                                definition.resumeOptions() == null
                                        ? Map.of()
                                        : definition.resumeOptions(),
                                clock.instant()));
            }
            return true;
        }
        // The job of an older version goes first: its state is saved when the query is the same.
        streaming.stop(pipeline, query.equals(pipeline.streamingJobQuery) ? definition : null);
        boolean rebuilt;
        long tableStart = System.nanoTime();
        try {
            rebuilt = submitter.tables().ensureTable(definition, plan);
            LOG.infof(
                    "the Paimon table of %s %s in %d ms",
                    pipeline.table,
                    rebuilt ? "created" : "found",
                    (System.nanoTime() - tableStart) / 1_000_000);
        } catch (RuntimeException e) {
            reports.failed(
                    pipeline,
                    null,
                    "cannot create the Paimon table: " + PipelineReports.rootMessage(e),
                    null);
            return false;
        }
        if (plan.mode() == Mode.CONTINUOUS) {
            String restore;
            try {
                restore = rebuilt ? null : locations.latestState(definition).orElse(null);
            } catch (RuntimeException e) {
                reports.failed(
                        pipeline,
                        null,
                        "cannot read the table's saved state: " + PipelineReports.rootMessage(e),
                        null);
                return false;
            }
            if (!streaming.start(pipeline, restore)) {
                return false;
            }
        } else {
            pipeline.on(TableLifecycle.Event.FULL_PLAN_APPLIED);
        }
        if (resuming) {
            events.resumed(
                    new Resumed(
                            pipeline.table,
                            definition.version(),
                            null,
                            definition.resumeOptions() == null
                                    ? Map.of()
                                    : definition.resumeOptions(),
                            clock.instant()));
        }
        return true;
    }

    /**
     * Stops the table's job with a savepoint; false when the state could not be saved (the job
     * keeps running).
     */
    boolean suspend(Pipeline pipeline, String reason) {
        if (pipeline.staging != null) {
            switchOvers.abandon(pipeline); // RESUME starts the switch-over again
        }
        String savepoint = null;
        if (pipeline.streamingJobId != null
                && !QueryState.fingerprint(pipeline.definition)
                        .equals(pipeline.streamingJobQuery)) {
            // It runs an older query (the newer one was staging): its state belongs to no query
            // that will run again.
            streaming.stop(pipeline, null);
        }
        if (pipeline.streamingJobId != null && streaming.running(pipeline.streamingJobId)) {
            Optional<String> directory = locations.savepointDir(pipeline.definition);
            if (directory.isEmpty()) {
                reports.notice(
                        pipeline,
                        pipeline.streamingJobId,
                        "SUSPEND needs a savepoint directory (mt.flink.savepoint-dir); the job"
                                + " keeps running"
                                + retryText(pipeline));
                return false;
            }
            try {
                savepoint = flink.stopWithSavepoint(pipeline.streamingJobId, directory.get());
            } catch (RuntimeException e) {
                reports.notice(
                        pipeline,
                        pipeline.streamingJobId,
                        "SUSPEND could not save the job's state: "
                                + PipelineReports.rootMessage(e)
                                + "; the job keeps running"
                                + retryText(pipeline));
                return false;
            }
        }
        pipeline.streamingJobId = null;
        pipeline.refreshWaiting = null;
        pipeline.on(TableLifecycle.Event.SUSPENDED);
        events.suspended(
                new Suspended(
                        pipeline.table,
                        pipeline.plan.definitionVersion(),
                        reason,
                        savepoint,
                        clock.instant(),
                        Suspended.Cause.STATEMENT));
        LOG.infof(
                "suspended %s (%s)%s",
                pipeline.table, reason, savepoint == null ? "" : ", state in " + savepoint);
        return true;
    }

    /** When the step that just failed is tried again. */
    private static String retryText(Pipeline pipeline) {
        return " and SUSPEND is tried again in "
                + PipelineManager.retryDelay(pipeline.failedApplies + 1).toSeconds()
                + " s";
    }

    void refuse(Pipeline pipeline) {
        if (pipeline.staging != null) {
            switchOvers.abandon(pipeline);
        }
        streaming.stop(
                pipeline,
                QueryState.fingerprint(pipeline.definition).equals(pipeline.streamingJobQuery)
                        ? pipeline.definition
                        : null);
        pipeline.on(TableLifecycle.Event.PLAN_REFUSED);
        List<String> reasons = pipeline.plan.reasons();
        reports.notice(
                pipeline,
                null,
                "the plan of version "
                        + pipeline.plan.definitionVersion()
                        + " was refused: "
                        + reasons.get(reasons.size() - 1));
    }

    /**
     * Cancels the table's jobs and drops its Paimon table; false when the drop failed (tried
     * again). The manager then forgets the table.
     */
    boolean drop(Pipeline pipeline) {
        if (pipeline.staging != null) {
            switchOvers.abandon(pipeline);
        }
        if (pipeline.streamingJobId != null && streaming.running(pipeline.streamingJobId)) {
            flink.cancel(pipeline.streamingJobId);
        }
        if (pipeline.refreshJobId != null && streaming.running(pipeline.refreshJobId)) {
            flink.cancel(pipeline.refreshJobId);
        }
        pipeline.refreshWaiting = null;
        try {
            submitter.tables().dropTable(pipeline.table);
        } catch (PaimonTables.NotOurTableException notOurs) {
            // The materialized table is gone; the Paimon table of its name is someone else's and
            // stays: said once, as a failure of the table's last version, not tried again.
            reports.failed(pipeline, null, notOurs.getMessage(), null);
        } catch (RuntimeException e) {
            LOG.warnf(
                    "cannot drop the Paimon table of %s (tried again in %d s): %s",
                    pipeline.table,
                    PipelineManager.retryDelay(pipeline.failedApplies + 1).toSeconds(),
                    PipelineReports.rootMessage(e));
            return false;
        }
        events.dropped(
                new Dropped(pipeline.table, pipeline.plan.definitionVersion(), clock.instant()));
        LOG.infof("dropped %s", pipeline.table);
        return true;
    }
}
