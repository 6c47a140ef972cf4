package io.mtables.planning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

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
     * Stateful execution nodes whose compiled JSON lists no {@code state} (their state is declared
     * in code): windows, interval and temporal joins, OVER and MATCH_RECOGNIZE. Matched on the type
     * name without its version suffix.
     */
    private static final Set<String> STATEFUL_WITHOUT_STATE_FIELD =
            Set.of(
                    "stream-exec-global-window-aggregate",
                    "stream-exec-window-aggregate",
                    "stream-exec-group-window-aggregate",
                    "stream-exec-window-join",
                    "stream-exec-window-rank",
                    "stream-exec-window-deduplicate",
                    "stream-exec-over-aggregate",
                    "stream-exec-interval-join",
                    "stream-exec-temporal-join",
                    "stream-exec-temporal-sort",
                    "stream-exec-match");

    private static final String SOURCE_SCAN = "stream-exec-table-source-scan";
    private static final String SINK = "stream-exec-sink";

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
    private static final Set<String> NOT_STATE =
            Set.of("id", "description", "generateUpdateBefore");

    private static final ObjectMapper JSON = new ObjectMapper();

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
        Plan before = Plan.parse(oldPlan);
        Plan after = Plan.parse(newPlan);

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

    private static Result compatible(Plan before, Plan after) {
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
    private static Result differences(Plan before, int old, Plan after, int renewed) {
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

    /** A compiled plan: its nodes in Flink's order (inputs first) and the edges into each. */
    private static final class Plan {
        private final Map<Integer, ObjectNode> nodes = new LinkedHashMap<>();
        private final Map<Integer, List<JsonNode>> inputs = new HashMap<>();
        private final Map<Integer, String> signatures = new HashMap<>();

        static Plan parse(String json) {
            Plan plan = new Plan();
            JsonNode root;
            try {
                root = JSON.readTree(json);
            } catch (Exception e) {
                throw new IllegalArgumentException(
                        "not a compiled plan of Flink: " + e.getMessage(), e);
            }
            for (JsonNode node : root.path("nodes")) {
                plan.nodes.put(node.path("id").asInt(), (ObjectNode) node);
            }
            for (JsonNode edge : root.path("edges")) {
                plan.inputs
                        .computeIfAbsent(edge.path("target").asInt(), id -> new ArrayList<>())
                        .add(edge);
            }
            return plan;
        }

        String type(int id) {
            return nodes.get(id).path("type").asText().replaceFirst("_\\d+$", "");
        }

        boolean isSink(int id) {
            return type(id).equals(SINK);
        }

        /**
         * Whether node {@code id}'s window is {@code other}'s node's, but for the positions of its
         * time column in the rows (which move with the columns before it).
         */
        boolean sameWindow(int id, Plan other, int otherId) {
            return windowShape(id).equals(other.windowShape(otherId));
        }

        private JsonNode windowShape(int id) {
            JsonNode windowing = nodes.get(id).path("windowing").deepCopy();
            if (windowing instanceof ObjectNode shape) {
                shape.remove(List.of("sliceEnd", "timeAttributeIndex"));
            }
            return windowing;
        }

        boolean isStateful(int id) {
            JsonNode state = nodes.get(id).path("state");
            return (state.isArray() && !state.isEmpty())
                    || STATEFUL_WITHOUT_STATE_FIELD.contains(type(id));
        }

        List<Integer> stateful() {
            return nodes.keySet().stream().filter(this::isStateful).toList();
        }

        /**
         * The stateful nodes of this plan that have no node of the same signature in {@code other}.
         */
        List<Integer> statefulNotIn(Plan other) {
            Set<String> theirs = other.signaturesOf(other.stateful());
            return stateful().stream().filter(id -> !theirs.contains(signature(id))).toList();
        }

        List<Integer> nodesNotIn(Plan other) {
            Set<String> theirs = other.signaturesOf(other.nodes.keySet());
            return nodes.keySet().stream().filter(id -> !theirs.contains(signature(id))).toList();
        }

        private Set<String> signaturesOf(Collection<Integer> ids) {
            Set<String> signatures = new LinkedHashSet<>();
            ids.forEach(id -> signatures.add(signature(id)));
            return signatures;
        }

        /**
         * What a source scan's read positions belong to: the table and its options, not its
         * projection.
         */
        Set<String> sourceReads() {
            Set<String> reads = new LinkedHashSet<>();
            for (int id : nodes.keySet()) {
                if (type(id).equals(SOURCE_SCAN)) {
                    JsonNode table = nodes.get(id).path("scanTableSource").path("table");
                    reads.add(
                            table.path("identifier").asText()
                                    + canonical(table.path("resolvedTable").path("options")));
                }
            }
            return reads;
        }

        List<String> sourceNames() {
            return nodes.keySet().stream()
                    .filter(id -> type(id).equals(SOURCE_SCAN))
                    .map(
                            id ->
                                    nodes.get(id)
                                            .path("scanTableSource")
                                            .path("table")
                                            .path("identifier")
                                            .asText()
                                            .replace("`", ""))
                    .distinct()
                    .toList();
        }

        /** The node as Flink describes it, e.g. {@code GroupAggregate(groupBy=[user_id], ...)}. */
        String describe(int id) {
            JsonNode description = nodes.get(id).path("description");
            return description.isTextual() ? description.asText() : type(id);
        }

        /**
         * The node's own fields (ids and descriptions aside), then each input edge and its
         * signature.
         */
        String signature(int id) {
            String known = signatures.get(id);
            if (known != null) {
                return known;
            }
            StringBuilder signature = new StringBuilder(own(id));
            for (JsonNode edge : inputs.getOrDefault(id, List.of())) {
                ObjectNode shape = ((ObjectNode) edge).deepCopy();
                shape.remove(List.of("source", "target"));
                signature
                        .append(" <- ")
                        .append(canonical(shape))
                        .append(" (")
                        .append(signature(edge.path("source").asInt()))
                        .append(')');
            }
            signatures.put(id, signature.toString());
            return signature.toString();
        }

        private String own(int id) {
            ObjectNode node = nodes.get(id).deepCopy();
            node.remove(NOT_STATE);
            return canonical(node);
        }

        Set<String> ownFieldsDiffering(int id, Plan other, int otherId) {
            ObjectNode mine = nodes.get(id);
            ObjectNode theirs = other.nodes.get(otherId);
            Set<String> names = new LinkedHashSet<>();
            mine.fieldNames().forEachRemaining(names::add);
            theirs.fieldNames().forEachRemaining(names::add);
            names.removeAll(NOT_STATE);
            names.removeIf(name -> canonical(mine.path(name)).equals(canonical(theirs.path(name))));
            return names;
        }

        /** The first node upstream of {@code id} (inputs first) that {@code other} has not got. */
        String firstChangedUpstream(int id, Plan other) {
            Set<String> theirs = other.signaturesOf(other.nodes.keySet());
            Set<Integer> upstream = new LinkedHashSet<>();
            collectUpstream(id, upstream);
            return nodes.keySet().stream()
                    .filter(upstream::contains)
                    .filter(node -> !theirs.contains(signature(node)))
                    .findFirst()
                    .map(this::describe)
                    .orElse(null);
        }

        private void collectUpstream(int id, Set<Integer> into) {
            for (JsonNode edge : inputs.getOrDefault(id, List.of())) {
                int source = edge.path("source").asInt();
                if (into.add(source)) {
                    collectUpstream(source, into);
                }
            }
        }

        /** The DISTINCT aggregates: function and arguments of each. */
        List<String> distinctAggregates(int id) {
            List<String> distinct = new ArrayList<>();
            nodes.get(id)
                    .path("aggCalls")
                    .forEach(
                            call -> {
                                if (call.path("distinct").asBoolean()) {
                                    distinct.add(
                                            call.path("internalName").asText()
                                                    + canonical(call.path("argList")));
                                }
                            });
            return distinct;
        }
    }

    /** JSON with every object's fields in name order, so equal content prints equal. */
    private static String canonical(JsonNode node) {
        if (node.isObject()) {
            Map<String, String> fields = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                var field = it.next();
                fields.put(field.getKey(), canonical(field.getValue()));
            }
            StringBuilder out = new StringBuilder("{");
            fields.forEach(
                    (name, value) ->
                            out.append(out.length() > 1 ? "," : "")
                                    .append(JSON.getNodeFactory().textNode(name))
                                    .append(':')
                                    .append(value));
            return out.append('}').toString();
        }
        if (node.isArray()) {
            List<String> items = new ArrayList<>();
            node.forEach(item -> items.add(canonical(item)));
            return "[" + String.join(",", items) + "]";
        }
        return node.toString();
    }
}
