package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.PlanShapingOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A join followed by aggregates, translated by Flink with mini-batches on: Flink batches the join
 * too; through {@link UnbatchedJoins} the aggregates are batched and the join is not.
 */
class UnbatchedJoinsTest {

    private static final String QUERY =
            "INSERT INTO w.d.totals SELECT o.part, SUM(o.amount) AS total FROM orders AS o JOIN"
                    + " parts AS p ON o.part = p.id GROUP BY o.part HAVING SUM(o.amount) > (SELECT"
                    + " SUM(amount) * 0.01 FROM orders)";

    @TempDir Path warehouse;

    @Test
    void flinksOwnTranslationBatchesTheJoin() {
        StreamTableEnvironment env = environment();
        StreamStatementSet insert = env.createStatementSet();
        insert.addInsertSql(QUERY);
        insert.attachAsDataStream();

        assertThat(joins(operators(stream.getStreamGraph())))
                .containsOnly("MiniBatchInnerJoinStreamOperator");
    }

    @Test
    void onlyTheAggregatesAreBatched() {
        StreamTableEnvironment env = environment();

        int joins = UnbatchedJoins.attach(env, stream, QUERY);

        List<String> operators = operators(stream.getStreamGraph());
        assertThat(joins).isEqualTo(2);
        assertThat(joins(operators)).hasSize(2).containsOnly("StreamingJoinOperator");
        assertThat(operators)
                .contains("ProcTimeMiniBatchAssignerOperator", "KeyedMapBundleOperator");
    }

    @Test
    void aQueryWithoutJoinsGetsTheGraphFlinkBuilds() {
        String aggregate =
                "INSERT INTO w.d.totals SELECT part, SUM(amount) AS total FROM orders GROUP BY"
                        + " part";
        StreamStatementSet insert = environment().createStatementSet();
        insert.addInsertSql(aggregate);
        insert.attachAsDataStream();
        List<String> flinks = operatorIds(stream.getStreamGraph());

        assertThat(UnbatchedJoins.attach(environment(), stream, aggregate)).isZero();

        // the same operator ids: a job's saved state finds its operators either way
        assertThat(operatorIds(stream.getStreamGraph())).isNotEmpty().isEqualTo(flinks);
    }

    private StreamExecutionEnvironment stream;

    private StreamTableEnvironment environment() {
        Configuration configuration = new Configuration();
        PlanShapingOptions.miniBatch(Duration.ofSeconds(1)).forEach(configuration::setString);
        stream = new StreamExecutionEnvironment(configuration);
        StreamTableEnvironment env = StreamTableEnvironment.create(stream);
        for (String table :
                new String[] {
                    "orders (id BIGINT, part BIGINT, amount INT", "parts (id BIGINT, name STRING"
                }) {
            env.executeSql(
                    "CREATE TABLE "
                            + table
                            + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka',"
                            + " 'topic' = 't', 'format' = 'debezium-json',"
                            + " 'properties.bootstrap.servers' = '127.0.0.1:1',"
                            + " 'scan.startup.mode' = 'earliest-offset')");
        }
        env.executeSql(
                "CREATE CATALOG w WITH ('type' = 'paimon', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("CREATE DATABASE IF NOT EXISTS w.d");
        env.executeSql(
                "CREATE TABLE IF NOT EXISTS w.d.totals (part BIGINT, total INT, PRIMARY KEY (part)"
                        + " NOT ENFORCED)");
        return env;
    }

    private static List<String> joins(List<String> operators) {
        return operators.stream().filter(operator -> operator.contains("Join")).toList();
    }

    private static List<String> operatorIds(StreamGraph graph) {
        List<String> ids = new ArrayList<>();
        for (JobVertex vertex : graph.getJobGraph().getVertices()) {
            vertex.getOperatorIDs()
                    .forEach(pair -> ids.add(pair.getGeneratedOperatorID().toHexString()));
        }
        return ids;
    }

    /** The class of each operator of the graph. */
    private static List<String> operators(StreamGraph graph) {
        List<String> operators = new ArrayList<>();
        for (StreamNode node : graph.getStreamNodes()) {
            if (node.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple) {
                operators.add(simple.getOperator().getClass().getSimpleName());
            }
        }
        return operators;
    }
}
