package io.mtables.jobmanager.jobs;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.delegation.InternalPlan;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;

/**
 * Adds a streaming INSERT to a job's graph with Flink's mini-batches on everywhere but in its
 * regular joins: an aggregate after a join folds a batch's changes of a key into one (TPC-H Q11's
 * global sum changes once per batch, not once per row), while the join runs Flink's unbatched
 * operator, as Flink 2.2's mini-batch join loses rows over change streams (see the planner's
 * MiniBatches).
 *
 * <p>Flink has no option for it, but a node's own configuration wins over the job's when it is
 * translated (Flink's ExecNodeConfig), and a compiled plan's node graph is where the nodes can be
 * reached before translation. So the INSERT is compiled in memory (never serialized: Flink 2.2
 * cannot load a compiled plan that writes a Paimon catalog table), each join node's configuration
 * gets {@code table.exec.mini-batch.enabled = false}, and the graph is translated. Uids stay
 * Flink's unset ones, as for an INSERT that is not compiled. The planner's classes live in a class
 * loader of their own, so the node graph is walked through reflection (Flink 2.2.1's public methods
 * of ExecNodeGraph and ExecNode).
 */
final class UnbatchedJoins {

    /** Flink's execution node of a regular (and a semi or anti) join. */
    private static final String JOIN_NODE = "StreamExecJoin";

    private UnbatchedJoins() {}

    /**
     * Translates {@code insertSql} into {@code stream}'s graph; returns the joins left unbatched.
     */
    static int attach(
            StreamTableEnvironment env, StreamExecutionEnvironment stream, String insertSql) {
        TableEnvironmentImpl tables = (TableEnvironmentImpl) env;
        tables.getConfig()
                .set(
                        ExecutionConfigOptions.TABLE_EXEC_UID_GENERATION,
                        ExecutionConfigOptions.UidGeneration.DISABLED);
        List<Operation> parsed = tables.getParser().parse(insertSql);
        if (parsed.size() != 1 || !(parsed.get(0) instanceof ModifyOperation insert)) {
            throw new IllegalArgumentException("not one INSERT: " + insertSql);
        }
        Planner planner = tables.getPlanner();
        InternalPlan plan = planner.compilePlan(List.of(insert));
        int joins = unbatchJoins(plan);
        for (Transformation<?> transformation : planner.translatePlan(plan)) {
            stream.addOperator(transformation);
        }
        return joins;
    }

    private static int unbatchJoins(InternalPlan plan) {
        try {
            Object graph = call(plan, "getExecNodeGraph");
            Deque<Object> pending = new ArrayDeque<>((List<?>) call(graph, "getRootNodes"));
            Map<Object, Boolean> seen = new IdentityHashMap<>();
            int joins = 0;
            while (!pending.isEmpty()) {
                Object node = pending.pop();
                if (seen.put(node, Boolean.TRUE) != null) {
                    continue;
                }
                if (node.getClass().getSimpleName().equals(JOIN_NODE)) {
                    ((Configuration) call(node, "getPersistedConfig"))
                            .set(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED, false);
                    joins++;
                }
                for (Object edge : (List<?>) call(node, "getInputEdges")) {
                    pending.push(call(edge, "getSource"));
                }
            }
            return joins;
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException(
                    "cannot leave the joins of a compiled plan unbatched (Flink 2.2.1's node"
                            + " graph expected)",
                    e);
        }
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
        return target.getClass().getMethod(method).invoke(target);
    }
}
