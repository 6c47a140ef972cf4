package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.jobs.BridgedHistory;
import io.mtables.jobmanager.jobs.JobOptions;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Seed 004's bridge as a step of a switch-over ({@link SwitchOvers#finish}): where the change has
 * one, {@link BridgedHistory} runs once, after both jobs stopped and before the renames, while the
 * old table still serves readers. A failure is reported and the step tried again at the next look;
 * after {@link #TRIES} failures the switch-over is given up (and starts again later).
 */
final class SwitchBridges {

    /** How often a switch's bridge is run before the switch-over is given up. */
    static final int TRIES = 3;

    /** What the switch-over does after the step. */
    sealed interface Outcome {
        /** Bridged, or nothing to bridge: the switch goes on to the renames. */
        record Done() implements Outcome {}

        /** Failed and reported: tried again at the next look, the old rows serving meanwhile. */
        record TryAgain() implements Outcome {}

        /** Failed {@link #TRIES} times: the switch-over is given up with this reason. */
        record GiveUp(String reason) implements Outcome {}
    }

    /** The bridge's batch jobs: {@link BridgedHistory#bridge}. */
    @FunctionalInterface
    interface Bridge {
        Optional<SwitchedOver.Bridged> run(
                TableDefinition definition,
                HistoryBridge bridge,
                Map<String, String> jobOptions,
                Duration timeout);
    }

    private final Bridge bridges;
    private final JobManagerConfig config;
    private final PipelineReports reports;

    SwitchBridges(Bridge bridges, JobManagerConfig config, PipelineReports reports) {
        this.bridges = bridges;
        this.config = config;
        this.reports = reports;
    }

    /**
     * Bridges the staged table of the pipeline's switch-over, unless done already, the change has
     * no bridge, or an input was replaced (its rows are read whole again: nothing of it is lost).
     */
    Outcome bridge(Pipeline pipeline, boolean inputReplaced) {
        Pipeline.Staging staging = pipeline.staging;
        var change = pipeline.definition.queryChange();
        if (staging.bridgeDone || change == null || change.bridge() == null || inputReplaced) {
            return new Outcome.Done();
        }
        try {
            staging.bridged =
                    bridges.run(
                                    pipeline.definition,
                                    change.bridge(),
                                    JobOptions.refresh(
                                            pipeline.definition,
                                            "bridge-v" + pipeline.definition.version(),
                                            config),
                                    StateRestores.REWRITE_TIMEOUT)
                            .orElse(null);
        } catch (RuntimeException e) {
            String failure =
                    "the switch-over could not bridge the old query's rows into the new table ("
                            + PipelineReports.rootMessage(e)
                            + "); the old query's rows keep serving the table";
            if (++staging.bridgeFailures < TRIES) {
                reports.notice(pipeline, null, failure + " and the bridge is tried again");
                return new Outcome.TryAgain();
            }
            return new Outcome.GiveUp(
                    failure + ", and after " + TRIES + " tries the switch-over starts again");
        }
        staging.bridgeDone = true;
        warnOfAGap(pipeline, staging.bridged);
        return new Outcome.Done();
    }

    /** A new query whose rows begin after the cut-over leaves the windows between them unsure. */
    private void warnOfAGap(Pipeline pipeline, SwitchedOver.Bridged kept) {
        if (kept != null
                && kept.newRowsFrom() != null
                && kept.newRowsFrom().compareTo(kept.cutOver()) > 0) {
            reports.notice(
                    pipeline,
                    null,
                    "bridged at "
                            + kept.column()
                            + " "
                            + kept.cutOver()
                            + ", but the new query's rows begin at "
                            + kept.newRowsFrom()
                            + ": the windows between them may be missing or partial (the sources"
                            + " no longer held their changes)");
        }
    }
}
