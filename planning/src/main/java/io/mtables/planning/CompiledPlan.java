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
import java.util.Set;
import java.util.TreeMap;

/**
 * A compiled plan of Flink (the JSON of {@code COMPILE PLAN}), as {@link StateCompatibility} reads
 * it: its nodes in Flink's order (inputs first), the edges into each, and each node's shape.
 */
final class CompiledPlan {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SOURCE_SCAN = "stream-exec-table-source-scan";
    private static final String SINK = "stream-exec-sink";

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

    private final Map<Integer, ObjectNode> nodes = new LinkedHashMap<>();
    private final Map<Integer, List<JsonNode>> inputs = new HashMap<>();
    private final Map<Integer, String> signatures = new HashMap<>();

    static CompiledPlan parse(String json) {
        CompiledPlan plan = new CompiledPlan();
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
     * Whether node {@code id}'s window is {@code other}'s node's, but for the positions of its time
     * column in the rows (which move with the columns before it).
     */
    boolean sameWindow(int id, CompiledPlan other, int otherId) {
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

    /** The stateful nodes of this plan that have no node of the same signature in {@code other}. */
    List<Integer> statefulNotIn(CompiledPlan other) {
        Set<String> theirs = other.signaturesOf(other.stateful());
        return stateful().stream().filter(id -> !theirs.contains(signature(id))).toList();
    }

    List<Integer> nodesNotIn(CompiledPlan other) {
        Set<String> theirs = other.signaturesOf(other.nodes.keySet());
        return nodes.keySet().stream().filter(id -> !theirs.contains(signature(id))).toList();
    }

    private Set<String> signaturesOf(Collection<Integer> ids) {
        Set<String> signatures = new LinkedHashSet<>();
        ids.forEach(id -> signatures.add(signature(id)));
        return signatures;
    }

    /**
     * What a source scan's read positions belong to: the table and its options, not its projection.
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
     * The node's own fields (ids and descriptions aside), then each input edge and its signature.
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
        node.remove(StateCompatibility.NOT_STATE);
        return canonical(node);
    }

    Set<String> ownFieldsDiffering(int id, CompiledPlan other, int otherId) {
        ObjectNode mine = nodes.get(id);
        ObjectNode theirs = other.nodes.get(otherId);
        Set<String> names = new LinkedHashSet<>();
        mine.fieldNames().forEachRemaining(names::add);
        theirs.fieldNames().forEachRemaining(names::add);
        names.removeAll(StateCompatibility.NOT_STATE);
        names.removeIf(name -> canonical(mine.path(name)).equals(canonical(theirs.path(name))));
        return names;
    }

    /** The first node upstream of {@code id} (inputs first) that {@code other} has not got. */
    String firstChangedUpstream(int id, CompiledPlan other) {
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

    /** JSON with every object's fields in name order, so equal content prints equal. */
    static String canonical(JsonNode node) {
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
