package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.QueryState;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Tables whose rows were replaced at once: a switch-over put another Paimon table under the name
 * (its snapshots numbered from 1 again), or a restore rewrote the rows with one overwrite (which
 * Paimon's streaming read skips). What reads such a table cannot go on from where it was:
 *
 * <ul>
 *   <li>a CONTINUOUS reader's job is cancelled (its state and its read position belong to the old
 *       rows; its table keeps the answer over them), its table is marked ({@link
 *       QueryState#inputReplaced}, kept in the warehouse across restarts) and its plan applied
 *       again: a switch-over reads its query anew from the new rows while the old answer serves;
 *   <li>a FULL reader's refresh does not compare the input's snapshot ids across the replacement
 *       ({@link RefreshScopes}): it refreshes what it covers in whole.
 * </ul>
 */
final class ReplacedInputs {

    private static final Logger LOG = Logger.getLogger(ReplacedInputs.class);

    private final Map<String, Instant> replacedAt = new HashMap<>();
    private final JobSubmitter submitter;
    private final StreamingJobs streaming;
    private final SwitchOvers switchOvers;
    private final PipelineReports reports;
    private final Clock clock;

    ReplacedInputs(
            JobSubmitter submitter,
            StreamingJobs streaming,
            SwitchOvers switchOvers,
            PipelineReports reports,
            Clock clock) {
        this.submitter = submitter;
        this.streaming = streaming;
        this.switchOvers = switchOvers;
        this.reports = reports;
        this.clock = clock;
    }

    /** A replacement the previous run of the service reported. */
    void recall(String table, Instant at) {
        replacedAt.merge(table, at, (a, b) -> a.isAfter(b) ? a : b);
    }

    /**
     * Whether {@code input}'s rows were replaced after a refresh that read it at {@code readAt}.
     */
    boolean replacedSince(String input, Instant readAt) {
        Instant at = replacedAt.get(input);
        return at != null && (readAt == null || !at.isBefore(readAt));
    }

    /** The table's rows were replaced just now: its CONTINUOUS readers are rebuilt. */
    void replaced(String table, Collection<Pipeline> pipelines) {
        replacedAt.put(table, clock.instant());
        for (Pipeline reader : pipelines) {
            if (reads(reader, table)
                    && reader.planReady()
                    && reader.plan.mode() == RefreshPlan.Mode.CONTINUOUS
                    && reader.plan.status() != RefreshPlan.Status.DROPPED
                    && reader.plan.status() != RefreshPlan.Status.REFUSED) {
                rebuild(reader, table);
            }
        }
    }

    private static boolean reads(Pipeline reader, String table) {
        return reader.definition != null
                && !reader.table.equals(table)
                && reader.definition.sources().stream()
                        .anyMatch(
                                source ->
                                        source.kind() == TableDefinition.Kind.MATERIALIZED_TABLE
                                                && source.table().equals(table));
    }

    /**
     * Marked first, then stopped: a restart in between finds the mark and a running job, and
     * switches over all the same (PlanSteps#activate).
     */
    private void rebuild(Pipeline reader, String input) {
        try {
            submitter.tables().markWrittenBy(reader.table, QueryState.inputReplaced(input));
        } catch (RuntimeException e) {
            reports.notice(
                    reader,
                    reader.streamingJobId,
                    "the table could not be marked as reading "
                            + input
                            + " before its rows were replaced ("
                            + PipelineReports.rootMessage(e)
                            + "); it is rebuilt all the same, unless this service restarts first");
        }
        if (reader.staging != null) {
            switchOvers.abandon(reader); // its staged job read the old rows too
        }
        if (reader.plan.status() == RefreshPlan.Status.SUSPENDED) {
            return; // RESUME switches over, the table marked
        }
        streaming.stop(reader, null);
        reader.inputReplaced();
        reader.failedApplies = 0;
        reader.retryApplyAt = clock.instant(); // the next look applies its plan again
        LOG.infof(
                "%s reads %s, whose rows were replaced: its job is cancelled and its query read"
                        + " anew into a staged table while its rows serve",
                reader.table, input);
    }
}
