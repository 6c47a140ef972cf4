package io.mtables.planning;

import java.time.Duration;

/**
 * Whether a CONTINUOUS table's job runs with Flink's mini-batches, and for how long they may hold
 * changes. A mini-batch operator folds the changes of a key it buffers into one before it acts on
 * them: an aggregate's row changes once per batch, not once per input row.
 *
 * <p>Mini-batches hold changes for up to the checkpoint interval: a checkpoint flushes them before
 * its barrier passes (Flink's bundle operators finish their bundle then), and readers only see what
 * checkpoints commit, so the freshness is not touched.
 *
 * <p>Off for a plan with a regular join (inner or outer): Flink 2.2 then batches the join too, and
 * its mini-batch join lost rows over our change streams (OracleAcrossServicesIT's users x domains
 * inner join: 5 of 269 rows; ShapesAcrossServicesIT's RIGHT and FULL OUTER joins: 28 rows;
 * FLINK-40681 describes a fold of an update and a delete into nothing). Flink has no option to
 * leave joins out; a compiled plan's node configuration would, but Flink 2.2 cannot load a compiled
 * plan that writes a Paimon catalog table (its sink is rebuilt from the table's options, which name
 * no connector). Semi and anti joins (IN, EXISTS) are not batched by Flink.
 */
public final class MiniBatches {

    /**
     * Changes a mini-batch operator buffers at most before it flushes anyway (Flink's
     * table.exec.mini-batch.size).
     */
    public static final long SIZE = 10_000;

    private MiniBatches() {}

    /** How long the job's mini-batches may hold changes; null when the job runs without them. */
    static Duration of(
            QueryAnalysis query, Duration checkpointInterval, boolean holdsEmptyInputRow) {
        return query.regularJoin() || holdsEmptyInputRow ? null : checkpointInterval;
    }

    /** The plan's reason for the choice. */
    static String reason(Duration miniBatch, QueryAnalysis query) {
        if (miniBatch != null) {
            return "Mini-batches of up to "
                    + Durations.precise(miniBatch)
                    + " (the checkpoint interval; a checkpoint flushes them, so readers wait no"
                    + " longer): each operator folds a batch's changes of a key into one, so an"
                    + " aggregate's row changes once per batch, not once per input row.";
        }
        return "No mini-batches: the job "
                + (query.regularJoin()
                        ? "has a regular join"
                        : "holds the aggregate's row over no input with an outer join")
                + ", which Flink 2.2 would batch too, and its mini-batch join can fold an update"
                + " and a delete of a row into nothing (FLINK-40681), losing the row.";
    }
}
