package io.mtables.jobmanager.jobs;

import io.mtables.planning.SnapshotHeldWatermark;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.OperatorIDPair;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * A streaming job's graph, built by the job manager before it is submitted: so that its operators
 * can be named by what they compute ({@link OperatorUids}), and so that a restore can be checked
 * against it as Flink checks it at the job's start.
 */
final class StreamingGraphs {

    private final Warehouse warehouse;
    private final KafkaSourceCredentials credentials;

    StreamingGraphs(Warehouse warehouse, KafkaSourceCredentials credentials) {
        this.warehouse = warehouse;
        this.credentials = credentials;
    }

    /** A job's graph and the environment that submits it. */
    record Prepared(StreamExecutionEnvironment environment, StreamGraph graph) {}

    /**
     * The graph of the table's streaming job writing the Paimon table {@code target}, its
     * operators' uids named by what they compute when the table's jobs use such uids.
     */
    Prepared prepare(
            TableDefinition definition,
            RefreshPlan plan,
            Configuration configuration,
            String target) {
        return prepare(definition, plan, configuration, target, target);
    }

    /**
     * The same, its operators named as those of a job writing {@code namedAs}: how the job writing
     * {@code namedAs} named them (the uids and writer generation in its Paimon table's options).
     */
    private Prepared prepare(
            TableDefinition definition,
            RefreshPlan plan,
            Configuration configuration,
            String target,
            String namedAs) {
        // Constructed, not got: getExecutionEnvironment would start a local cluster here instead
        // of submitting to the configured one.
        StreamExecutionEnvironment stream = new StreamExecutionEnvironment(configuration);
        StreamTableEnvironment env =
                StreamTableEnvironment.create(
                        stream, EnvironmentSettings.newInstance().inStreamingMode().build());
        env.executeSql(JobSql.createCatalog(warehouse));
        JobSql.declareSources(definition, plan).forEach(env::executeSql);
        credentials.apply(env, definition);
        definition.sources().stream()
                .filter(source -> source.kind() != TableDefinition.Kind.MATERIALIZED_TABLE)
                .forEach(source -> SnapshotHeldWatermark.apply(env, source.table()));
        String insertSql = JobSql.insert(definition, plan, target);
        if (plan.miniBatch() != null) {
            UnbatchedJoins.attach(env, stream, insertSql);
        } else {
            StreamStatementSet insert = env.createStatementSet();
            insert.addInsertSql(insertSql);
            insert.attachAsDataStream();
        }
        StreamGraph graph = stream.getStreamGraph();
        Map<String, String> options = tableOptions(env, namedAs);
        if (OperatorUids.BY_COMPUTATION.equals(options.get(OperatorUids.TABLE_OPTION))) {
            OperatorUids.assign(graph, options.get(OperatorUids.WRITER_GENERATION));
        }
        return new Prepared(stream, graph);
    }

    /**
     * The operators of the saved state {@code restoreFrom} that hold state and have no operator in
     * the table's streaming job writing {@code target}: Flink refuses to start such a job ("Cannot
     * map checkpoint/savepoint state"). Empty when every piece of state finds its operator. The
     * job's operators are named as those of the job writing the table's own Paimon table, which
     * saved the state: a staged table's writer has its own state (its writer generation), and the
     * job writing it drops the other's.
     */
    List<String> stateWithoutOperator(
            TableDefinition definition,
            RefreshPlan plan,
            Configuration configuration,
            CheckpointMetadata restoreFrom,
            String target) {
        Set<OperatorID> operators = new HashSet<>();
        for (JobVertex vertex :
                prepare(definition, plan, configuration, target, definition.table())
                        .graph()
                        .getJobGraph()
                        .getVertices()) {
            for (OperatorIDPair pair : vertex.getOperatorIDs()) {
                operators.add(pair.getGeneratedOperatorID());
                pair.getUserDefinedOperatorID().ifPresent(operators::add);
            }
        }
        List<String> orphans = new ArrayList<>();
        for (OperatorState state : restoreFrom.getOperatorStates()) {
            boolean holdsState =
                    state.getCoordinatorState() != null
                            || state.getStates().stream().anyMatch(OperatorSubtaskState::hasState);
            if (holdsState && !operators.contains(state.getOperatorID())) {
                orphans.add(
                        state.getOperatorID()
                                + state.getOperatorName()
                                        .map(name -> " (" + name + ")")
                                        .orElse(""));
            }
        }
        return orphans;
    }

    /** The options of a Paimon table of the warehouse. */
    private static Map<String, String> tableOptions(TableEnvironment env, String table) {
        TableId id = TableId.of(table);
        try {
            return env.getCatalog(JobSql.WAREHOUSE_CATALOG)
                    .orElseThrow()
                    .getTable(new ObjectPath(id.database(), id.name()))
                    .getOptions();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Paimon table of " + table, e);
        }
    }
}
