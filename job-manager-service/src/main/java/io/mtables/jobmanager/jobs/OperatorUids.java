package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.SwitchOverNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

/**
 * Operator uids that name what an operator computes, so that a new query's job finds the state of
 * every operator it shares with the old query's (a COMPATIBLE change, docs/evolution.md). Flink's
 * own uids for SQL jobs are hashes of an operator's place in the graph and of how it is chained: a
 * filter added after an aggregate changes the uids of Paimon's writer and committer after it, and
 * their state is then "not available in the new program". Here, as in {@code StateCompatibility}'s
 * signatures:
 *
 * <ul>
 *   <li>an operator of the query (Flink describes it as {@code [n]:Kind(...)}) is named by its
 *       description and the names of its inputs: the same computation over the same inputs has the
 *       same uid, whatever follows it;
 *   <li>a source scan by the table it reads (its read positions belong to the table, not to the
 *       columns projected from it);
 *   <li>an operator of the connector writing the table (Paimon's writer, committer, bucket
 *       assigner) by its name alone, a staged table's name read as the table's, and by the Paimon
 *       table's {@link #WRITER_GENERATION}: its state is that Paimon table's, whatever query feeds
 *       it. A staged table restored from the state of the job writing the table's own (docs/
 *       evolution.md) is another Paimon table with its own writer: a job writing it must not take
 *       the other's pending commits, and after the switch-over's renames its writer is the table's.
 * </ul>
 *
 * Operators alike in all of this are told apart by their order in the graph. Jobs of a table
 * created before these uids keep Flink's (their saved state names its operators so): the table's
 * option {@link #TABLE_OPTION} says which a table's jobs use.
 */
final class OperatorUids {

    /** The Paimon table option of a table whose jobs' operators have these uids. */
    static final String TABLE_OPTION = "mt.operator-uids";

    /** Its value. */
    static final String BY_COMPUTATION = "by-computation";

    /**
     * The Paimon table option naming which Paimon table a writer's state belongs to: the version
     * that created it ({@code v3}). Tables created before it have none.
     */
    static final String WRITER_GENERATION = "mt.writer-generation";

    /** Flink's description of an operator of the query: its exec node's id, then what it does. */
    private static final Pattern QUERY_OPERATOR = Pattern.compile("^\\[\\d+\\]:");

    private static final Pattern SOURCE_TABLE =
            Pattern.compile("^TableSourceScan\\(table=\\[\\[([^,\\]]+), ([^,\\]]+), ([^,\\]]+)");

    private static final Pattern STAGED_NAME =
            Pattern.compile(Pattern.quote(SwitchOverNames.STAGED_SUFFIX) + "[0-9]+");

    private OperatorUids() {}

    /**
     * Sets the uid of every operator of {@code graph} that has none.
     *
     * @param writerGeneration the written Paimon table's {@link #WRITER_GENERATION}, or null: part
     *     of the uids of the connector's operators after the query's (the writing ones; a Paimon
     *     source's own operators keep where they read)
     */
    static void assign(StreamGraph graph, String writerGeneration) {
        Map<Integer, String> names = new HashMap<>();
        Map<String, Integer> taken = new HashMap<>();
        Set<Integer> afterQuery = new HashSet<>();
        for (StreamNode node : inputsFirst(graph)) {
            boolean writing =
                    node.getInEdges().stream()
                            .anyMatch(edge -> afterQuery.contains(edge.getSourceId()));
            String name = name(node, names, writing ? writerGeneration : null);
            if (writing || !name.startsWith("connector:")) {
                afterQuery.add(node.getId());
            }
            names.put(node.getId(), name);
            if (node.getTransformationUID() == null) {
                int seen = taken.merge(name, 1, Integer::sum);
                graph.setTransformationUID(node.getId(), "mt-" + digest(name + "#" + seen));
            }
        }
    }

    private static String name(
            StreamNode node, Map<Integer, String> names, String writerGeneration) {
        String description = node.getOperatorDescription();
        if (description == null || !QUERY_OPERATOR.matcher(description).find()) {
            return "connector:"
                    + STAGED_NAME.matcher(node.getOperatorName()).replaceAll("")
                    + (writerGeneration == null ? "" : " @" + writerGeneration)
                    + inputNames(node, names, true);
        }
        String what = QUERY_OPERATOR.matcher(description).replaceFirst("");
        var source = SOURCE_TABLE.matcher(what);
        if (node.getInEdges().isEmpty() && source.find()) {
            return "source:" + source.group(1) + "." + source.group(2) + "." + source.group(3);
        }
        return what + inputNames(node, names, false);
    }

    /**
     * The names of the node's inputs; for a connector's operator only those of other connector
     * operators (what the query computes before them is not their state).
     */
    private static String inputNames(
            StreamNode node, Map<Integer, String> names, boolean connectorOnly) {
        StringBuilder inputs = new StringBuilder();
        for (StreamEdge edge : node.getInEdges()) {
            String input = names.get(edge.getSourceId());
            if (!connectorOnly || input.startsWith("connector:")) {
                inputs.append("\n<- ").append(input);
            }
        }
        return inputs.toString();
    }

    /** The graph's nodes, each after all of its inputs, in the order of their ids otherwise. */
    private static List<StreamNode> inputsFirst(StreamGraph graph) {
        List<StreamNode> nodes =
                graph.getStreamNodes().stream()
                        .sorted(Comparator.comparingInt(StreamNode::getId))
                        .toList();
        Map<Integer, Integer> waitingFor = new HashMap<>();
        Deque<StreamNode> ready = new ArrayDeque<>();
        for (StreamNode node : nodes) {
            waitingFor.put(node.getId(), node.getInEdges().size());
            if (node.getInEdges().isEmpty()) {
                ready.add(node);
            }
        }
        List<StreamNode> ordered = new ArrayList<>();
        while (!ready.isEmpty()) {
            StreamNode node = ready.poll();
            ordered.add(node);
            for (StreamEdge edge : node.getOutEdges()) {
                if (waitingFor.merge(edge.getTargetId(), -1, Integer::sum) == 0) {
                    ready.add(graph.getStreamNode(edge.getTargetId()));
                }
            }
        }
        if (ordered.size() != nodes.size()) {
            throw new IllegalStateException("the job's graph has a cycle");
        }
        return ordered;
    }

    private static String digest(String text) {
        try {
            byte[] hash =
                    MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
