package io.mtables.planning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Whether the state of a running streaming job can be carried into the job of a changed query, read
 * from Flink's compiled plans of the old and the new query (the JSON of {@code COMPILE PLAN}),
 * never from the SQL text. A node's state is the same when the node and everything upstream of it
 * are the same in both plans (Flink's node ids aside): then Flink's state for it was built from the
 * rows the new query would feed it, in the layout the new job expects. Source scans keep only their
 * read positions, which carry over as long as the same table is read with the same options.
 */
public final class StateCompatibility {

    /** The three verdicts of seed 004. */
    public enum Verdict {
        /** Every piece of state the new job needs is the old job's, computed the same way. */
        COMPATIBLE,
        /** The new job's state is laid out or keyed differently: it cannot be restored. */
        INCOMPATIBLE,
        /**
         * Not proven either way: restoring could run, but the state may hold rows the new query
         * would not.
         */
        UNKNOWN
    }

    /**
     * @param verdict the verdict
     * @param reason why, in words, naming Flink's operators as Flink describes them
     */
    public record Result(Verdict verdict, String reason) {
        public Result {
            Objects.requireNonNull(verdict);
            Objects.requireNonNull(reason);
        }
    }

    /**
     * Fields of a stateful node that decide how its state is keyed or windowed, in words; the
     * window last, as its time column's position moves with the grouping keys.
     */
    private static final Map<String, String> KEY_FIELDS = keyFields();

    /**
     * Fields that say nothing about the state: Flink's ids, its text for people, and whether the
     * node sends update-before messages (what a changed query downstream asks of it, not what it
     * keeps).
     */
    static final Set<String> NOT_STATE = Set.of("id", "description", "generateUpdateBefore");

    private static Map<String, String> keyFields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("grouping", "the grouping keys changed");
        fields.put("joinSpec", "the join's keys or type changed");
        fields.put("partition", "the PARTITION BY changed");
        fields.put("partitionSpec", "the PARTITION BY changed");
        fields.put("orderBy", "the ranking's order changed");
        fields.put("rankType", "the ranking changed");
        fields.put("rankRange", "the ranking's range changed");
        fields.put("windowing", "the window changed");
        return fields;
    }

    private StateCompatibility() {}

    /**
     * The verdict for replacing the job compiled as {@code oldPlan} by the one compiled as {@code
     * newPlan}.
     */
    public static Result compare(String oldPlan, String newPlan) {
        CompiledPlan before = CompiledPlan.parse(oldPlan);
        CompiledPlan after = CompiledPlan.parse(newPlan);

        Set<String> readBefore = before.sourceReads();
        Set<String> readAfter = after.sourceReads();
        if (!readBefore.equals(readAfter)) {
            return new Result(
                    Verdict.INCOMPATIBLE,
                    "the new query reads other sources, or reads them with other options ("
                            + String.join(", ", before.sourceNames())
                            + " before, "
                            + String.join(", ", after.sourceNames())
                            + " after): a source's read positions belong to the table and options"
                            + " it was read with");
        }

        List<Integer> unmatchedBefore = before.statefulNotIn(after);
        List<Integer> unmatchedAfter = after.statefulNotIn(before);
        if (unmatchedBefore.isEmpty() && unmatchedAfter.isEmpty()) {
            return compatible(before, after);
        }
        if (unmatchedAfter.isEmpty()) {
            return new Result(
                    Verdict.INCOMPATIBLE,
                    "the new query no longer keeps the state of "
                            + before.describe(unmatchedBefore.get(0))
                            + ": the old job's state for it would have no operator to go to");
        }
        if (unmatchedBefore.isEmpty()) {
            return new Result(
                    Verdict.INCOMPATIBLE,
                    "the new query keeps state the old one did not, in "
                            + after.describe(unmatchedAfter.get(0))
                            + ": it would start empty although its inputs were read already");
        }
        return differences(before, unmatchedBefore.get(0), after, unmatchedAfter.get(0));
    }

    private static Result compatible(CompiledPlan before, CompiledPlan after) {
        List<String> kept = before.stateful().stream().map(before::describe).toList();
        String state =
                kept.isEmpty()
                        ? "the old job keeps no state but its read positions in "
                                + String.join(", ", before.sourceNames())
                                + ", which the new query reads the same way"
                        : "Flink's plans compute the same state in both queries: "
                                + String.join("; ", kept);
        List<String> changed =
                after.nodesNotIn(before).stream()
                        .filter(id -> !after.isSink(id))
                        .map(after::describe)
                        .toList();
        return new Result(
                Verdict.COMPATIBLE,
                state
                        + (changed.isEmpty()
                                ? "; the queries differ only in how the result is written"
                                : "; the new query changes only what follows it: "
                                        + String.join("; ", changed)));
    }

    /** Why the first stateful node of the old plan without a match differs from the new plan's. */
    private static Result differences(
            CompiledPlan before, int old, CompiledPlan after, int renewed) {
        String was = before.describe(old);
        String is = after.describe(renewed);
        if (!before.type(old).equals(after.type(renewed))) {
            return new Result(
                    Verdict.INCOMPATIBLE,
                    "the old query keeps its state in "
                            + was
                            + ", the new one in "
                            + is
                            + ": different operators keep different state");
        }
        Set<String> fields = before.ownFieldsDiffering(old, after, renewed);
        if (fields.isEmpty()) {
            String upstream = after.firstChangedUpstream(renewed, before);
            return new Result(
                    Verdict.UNKNOWN,
                    is
                            + " keeps the same kind of state, but the rows reaching it are computed"
                            + " differently"
                            + (upstream == null ? "" : " (" + upstream + ")")
                            + ": its state may hold rows the new query would not have given it");
        }
        if (fields.contains("aggCalls") && before.sameWindow(old, after, renewed)) {
            // The window's time column only moved with the aggregates' columns.
            fields.remove("windowing");
        }
        for (var key : KEY_FIELDS.entrySet()) {
            if (fields.contains(key.getKey())) {
                return new Result(
                        Verdict.INCOMPATIBLE,
                        key.getValue() + ": " + was + " before, " + is + " after");
            }
        }
        if (fields.contains("aggCalls")) {
            boolean distinctChanged =
                    !before.distinctAggregates(old).equals(after.distinctAggregates(renewed));
            return new Result(
                    Verdict.INCOMPATIBLE,
                    (distinctChanged
                                    ? "DISTINCT aggregates were added, removed or changed (each"
                                            + " keeps a set of values of its own)"
                                    : "the aggregates changed, and Flink keeps all of a group's"
                                            + " accumulators in one row whose type would change")
                            + ": "
                            + was
                            + " before, "
                            + is
                            + " after");
        }
        if (fields.contains("filterCondition")) {
            return new Result(
                    Verdict.UNKNOWN,
                    "the filter Flink moved into "
                            + was
                            + " changed ("
                            + is
                            + " after): its state may hold rows the new query"
                            + " would not keep, or lack rows it would");
        }
        return new Result(
                Verdict.UNKNOWN,
                was
                        + " is configured differently in the new plan ("
                        + String.join(", ", fields)
                        + "): not proven to read the old state the same way");
    }
}
