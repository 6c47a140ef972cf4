package io.mtables.planning;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;

/**
 * What Flink's planner says about a materialized table's query: whether it runs as a stream and
 * with which changelog and keys, whether it runs as a batch, and the traps in its plan.
 *
 * @param verdict whether it can run as a stream
 * @param changelogMode the changelog the query produces, such as {@code [I]} or {@code
 *     [I,UB,UA,D]}; null unless STREAMABLE
 * @param detail why, in Flink's words when Flink refused; null when STREAMABLE
 * @param uniqueKeys the keys Flink proves unique for the query's result (output column names),
 *     smallest first; empty when none, null when not known
 * @param batch whether the query can run as a batch (FULL refreshes), in Flink's words when not
 * @param statefulOperators operators of the streaming plan whose state never expires, in words
 *     ("regular join", "group aggregation", ...); operators with a STATE_TTL hint are left out
 * @param timeFunctions current-time functions (NOW(), CURRENT_TIMESTAMP, ...) found in filter or
 *     join conditions
 * @param latestValueSources source tables that hold the latest value of each row (a change stream,
 *     an upsert topic, a database table or another materialized table) rather than every event
 * @param branchKeys for a query that is a UNION ALL, each branch's smallest key (output column
 *     names; empty when the branch has at most one row; null for a branch without one); null for
 *     any other query, or when the query has a key of its own
 * @param volatileFunctions functions anywhere in the batch plan whose value changes without the
 *     inputs changing (NOW(), CURRENT_DATE, RAND(), UUID(), ...): a refresh over unchanged inputs
 *     can still give another answer
 * @param partitionSources for a partitioned table: each input that feeds it partition by partition
 *     (see {@link PartitionLocality}), with the table's partition column to the input's; empty when
 *     none does or not known
 * @param emptyInputRow for a query of at most one row (a global aggregate): each column's value (as
 *     SQL text, null for NULL) when it reads no rows, the empty list when it then has no row (see
 *     {@link EmptyInputRow}); null for any other query, or when not known
 * @param regularJoin whether the streaming plan has an inner or outer regular join (not a semi or
 *     anti join, nor a window, interval, temporal or lookup join)
 */
@RecordBuilder
public record QueryAnalysis(
        Verdict verdict,
        String changelogMode,
        String detail,
        List<List<String>> uniqueKeys,
        BatchCheck batch,
        List<String> statefulOperators,
        List<String> timeFunctions,
        List<String> latestValueSources,
        List<List<String>> branchKeys,
        List<String> volatileFunctions,
        Map<String, Map<String, String>> partitionSources,
        List<String> emptyInputRow,
        boolean regularJoin)
        implements QueryAnalysisBuilder.With {

    /** The planner's answer. */
    public enum Verdict {
        STREAMABLE,
        NOT_STREAMABLE,
        UNKNOWN,
        /**
         * It cannot run at all as things stand, for a reason outside the query (an upstream table).
         */
        BLOCKED
    }

    /**
     * Whether the query runs as a batch.
     *
     * @param runs whether it runs (assumed when not checked)
     * @param checked whether Flink's batch planner was asked
     * @param detail Flink's words when it cannot
     */
    public record BatchCheck(boolean runs, boolean checked, String detail) {
        public static final BatchCheck RUNS = new BatchCheck(true, true, null);
        public static final BatchCheck NOT_CHECKED = new BatchCheck(true, false, null);

        public static BatchCheck cannot(String why) {
            return new BatchCheck(false, true, why);
        }
    }

    public static QueryAnalysis streamable(String changelogMode) {
        return initial(Verdict.STREAMABLE, changelogMode, null);
    }

    public static QueryAnalysis notStreamable(String why) {
        return initial(Verdict.NOT_STREAMABLE, null, why);
    }

    public static QueryAnalysis unknown(String why) {
        return initial(Verdict.UNKNOWN, null, why);
    }

    public static QueryAnalysis blocked(String why) {
        return initial(Verdict.BLOCKED, null, why);
    }

    /** A verdict with nothing else found yet; the analyzer adds the rest with the withers. */
    private static QueryAnalysis initial(Verdict verdict, String changelogMode, String detail) {
        return QueryAnalysisBuilder.builder()
                .verdict(verdict)
                .changelogMode(changelogMode)
                .detail(detail)
                .batch(BatchCheck.NOT_CHECKED)
                .statefulOperators(List.of())
                .timeFunctions(List.of())
                .latestValueSources(List.of())
                .volatileFunctions(List.of())
                .partitionSources(Map.of())
                .build();
    }

    /** Whether the query produces updates or deletes, not only inserts. */
    public boolean updating() {
        return changelogMode != null && !changelogMode.equals("[I]");
    }
}
