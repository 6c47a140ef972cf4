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
 * <p>Regular joins (inner or outer, the user's or the one that holds a global aggregate's row over
 * no input, see {@link EmptyInputRow}) are left unbatched, the rest of the job batched: Flink 2.2
 * would batch the joins too, and its mini-batch join lost rows over our change streams
 * (OracleAcrossServicesIT's users x domains inner join: 5 of 269 rows; ShapesAcrossServicesIT's
 * RIGHT and FULL OUTER joins: 28 rows; FLINK-40681 describes a fold of an update and a delete into
 * nothing). Flink has no option for it: the job manager sets it on each join node of the compiled
 * plan (its UnbatchedJoins). Semi and anti joins (IN, EXISTS) are not batched by Flink anyway.
 */
public final class MiniBatches {

    /**
     * Changes a mini-batch operator buffers at most before it flushes anyway (Flink's
     * table.exec.mini-batch.size).
     */
    public static final long SIZE = 10_000;

    private MiniBatches() {}

    /** How long the job's mini-batches may hold changes. */
    static Duration of(Duration checkpointInterval) {
        return checkpointInterval;
    }

    /** The plan's reason for the choice. */
    static String reason(Duration miniBatch, QueryAnalysis query) {
        return "Mini-batches of up to "
                + Durations.precise(miniBatch)
                + " (the checkpoint interval; a checkpoint flushes them, so readers wait no"
                + " longer): each operator folds a batch's changes of a key into one, so an"
                + " aggregate's row changes once per batch, not once per input row"
                + (query.regularJoin()
                        ? "; the join is left unbatched (Flink 2.2's mini-batch join can fold an"
                                + " update and a delete of a row into nothing, FLINK-40681)."
                        : ".");
    }
}
