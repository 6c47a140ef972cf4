package io.mtables.planning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The output columns of a query that are the end of a window its window aggregate closed (a window
 * TVF's {@code window_end}), traced in Flink's compiled plan from the sink back through projections
 * to the aggregate's named window property. Such a column orders the rows by the windows they
 * belong to, and a window's rows are written once it closed: seed 004's bridge cuts a table's rows
 * there. Only what the plan proves counts: a column computed from the window end, or passed through
 * any node but a projection or an exchange, is not one.
 */
public final class WindowEnds {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Window aggregates whose output is grouping keys, aggregates, then window properties. */
    private static final Set<String> WINDOW_AGGREGATES =
            Set.of("stream-exec-global-window-aggregate", "stream-exec-window-aggregate");

    /** Nodes that pass their input's columns through unchanged. */
    private static final Set<String> PASS_THROUGH =
            Set.of(
                    "stream-exec-exchange",
                    "stream-exec-drop-update-before",
                    "stream-exec-mini-batch-assigner");

    private WindowEnds() {}

    /**
     * The sink's columns (by name) that are a window aggregate's window end in {@code
     * compiledPlan}, the JSON of Flink's COMPILE PLAN for an INSERT of the query; empty when there
     * are none or the plan cannot be read.
     */
    public static Set<String> of(String compiledPlan) {
        JsonNode root;
        try {
            root = JSON.readTree(compiledPlan);
        } catch (Exception e) {
            return Set.of();
        }
        Map<Integer, JsonNode> nodes = new HashMap<>();
        Map<Integer, List<Integer>> inputs = new HashMap<>();
        int sink = -1;
        for (JsonNode node : root.path("nodes")) {
            int id = node.path("id").asInt();
            nodes.put(id, node);
            if (type(node).equals("stream-exec-sink")) {
                sink = id;
            }
        }
        for (JsonNode edge : root.path("edges")) {
            inputs.computeIfAbsent(edge.path("target").asInt(), id -> new ArrayList<>())
                    .add(edge.path("source").asInt());
        }
        if (sink < 0) {
            return Set.of();
        }
        JsonNode columns =
                nodes.get(sink)
                        .path("dynamicTableSink")
                        .path("table")
                        .path("resolvedTable")
                        .path("schema")
                        .path("columns");
        Set<String> ends = new LinkedHashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            if (isWindowEnd(nodes, inputs, onlyInput(inputs, sink), i)) {
                ends.add(columns.get(i).path("name").asText());
            }
        }
        return Set.copyOf(ends);
    }

    /** Whether column {@code index} of node {@code id}'s output is a window aggregate's end. */
    private static boolean isWindowEnd(
            Map<Integer, JsonNode> nodes, Map<Integer, List<Integer>> inputs, int id, int index) {
        while (id >= 0) {
            JsonNode node = nodes.get(id);
            String type = type(node);
            if (WINDOW_AGGREGATES.contains(type)) {
                int property = index - node.path("grouping").size() - node.path("aggCalls").size();
                JsonNode named = node.path("namedWindowProperties").path(property);
                return property >= 0
                        && named.path("property").path("kind").asText().equals("WindowEnd");
            }
            if (type.equals("stream-exec-calc")) {
                JsonNode projected = node.path("projection").path(index);
                if (!projected.path("kind").asText().equals("INPUT_REF")) {
                    return false;
                }
                index = projected.path("inputIndex").asInt();
            } else if (!PASS_THROUGH.contains(type)) {
                return false;
            }
            id = onlyInput(inputs, id);
        }
        return false;
    }

    private static int onlyInput(Map<Integer, List<Integer>> inputs, int id) {
        List<Integer> from = inputs.getOrDefault(id, List.of());
        return from.size() == 1 ? from.get(0) : -1;
    }

    private static String type(JsonNode node) {
        return node.path("type").asText().replaceFirst("_\\d+$", "");
    }
}
