package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The uids of a job's operators, from Flink's real graphs of an old and a new query (a COMPATIBLE
 * change): each operator that keeps state gets the same id in both.
 */
class OperatorUidsTest {

    private static final String FROM =
            " FROM `default_catalog`.`default_database`.`presses` AS `p` GROUP BY `p`.`category`";

    @TempDir Path warehouse;

    @Test
    void anAggregateKeepsItsIdWhenWhatFollowsItChanges() {
        Map<String, String> before =
                operatorIds("SELECT `p`.`category`, COUNT(*) AS `n`" + FROM, "counts", false);
        Map<String, String> after =
                operatorIds(
                        "SELECT `p`.`category`, COUNT(*) AS `n`, COUNT(*) * 10 AS `tens`"
                                + FROM
                                + " HAVING COUNT(*) > 10",
                        "counts",
                        true);

        for (String stateful :
                new String[] {
                    "Source", "GroupAggregate", "dynamic-bucket-assigner", "Writer", "Committer"
                }) {
            assertThat(after.get(stateful))
                    .as(stateful)
                    .isNotNull()
                    .isEqualTo(before.get(stateful));
        }
        assertThat(after.get("ConstraintEnforcer"))
                .as("an operator after the change (it keeps no state)")
                .isNotEqualTo(before.get("ConstraintEnforcer"));
    }

    @Test
    void aStagedTablesWriterHasTheTablesIdAndAnotherTableAnother() {
        String query = "SELECT `p`.`category`, COUNT(*) AS `n`" + FROM;

        assertThat(operatorIds(query, "counts__mt_v3", false).get("Writer"))
                .isEqualTo(operatorIds(query, "counts", false).get("Writer"))
                .isNotEqualTo(operatorIds(query, "other", false).get("Writer"));
    }

    @Test
    void anotherWriterGenerationGivesTheWritingOperatorsOtherIdsAndTheQueryItsOwn() {
        String query = "SELECT `p`.`category`, COUNT(*) AS `n`" + FROM;
        Map<String, String> tables = ids(query, "counts", false, true, "v1");
        Map<String, String> staged = ids(query, "counts__mt_v3", false, true, "v3");

        for (String writing : new String[] {"dynamic-bucket-assigner", "Writer", "Committer"}) {
            assertThat(staged.get(writing)).as(writing).isNotEqualTo(tables.get(writing));
        }
        for (String read : new String[] {"Source", "GroupAggregate"}) {
            assertThat(staged.get(read)).as(read).isNotNull().isEqualTo(tables.get(read));
        }
        assertThat(ids(query, "counts", false, true, "v3"))
                .as("after the renames: the table's writer is the staged one's")
                .isEqualTo(staged);
    }

    @Test
    void flinksOwnIdsOfTheWriterChangeWithWhatFollowsTheAggregate() {
        Map<String, String> before =
                flinkIds("SELECT `p`.`category`, COUNT(*) AS `n`" + FROM, "counts", false);
        Map<String, String> after =
                flinkIds(
                        "SELECT `p`.`category`, COUNT(*) AS `n`, COUNT(*) * 10 AS `tens`"
                                + FROM
                                + " HAVING COUNT(*) > 10",
                        "counts",
                        true);

        assertThat(after.get("GroupAggregate")).isEqualTo(before.get("GroupAggregate"));
        for (String stateful : new String[] {"dynamic-bucket-assigner", "Writer", "Committer"}) {
            assertThat(after.get(stateful)).as(stateful).isNotEqualTo(before.get(stateful));
        }
    }

    private Map<String, String> operatorIds(String query, String table, boolean tens) {
        return ids(query, table, tens, true);
    }

    private Map<String, String> flinkIds(String query, String table, boolean tens) {
        return ids(query, table, tens, false);
    }

    /** Each operator's id in the job graph, by the first word of its name. */
    private Map<String, String> ids(String query, String table, boolean tens, boolean assign) {
        return ids(query, table, tens, assign, null);
    }

    private Map<String, String> ids(
            String query, String table, boolean tens, boolean assign, String writerGeneration) {
        StreamExecutionEnvironment stream =
                StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        StreamTableEnvironment env = StreamTableEnvironment.create(stream);
        env.executeSql(
                "CREATE TABLE presses (id BIGINT, category STRING) WITH ('connector' = 'kafka',"
                        + " 'topic' = 'presses', 'format' = 'json', 'properties.bootstrap.servers'"
                        + " = '127.0.0.1:1', 'scan.startup.mode' = 'earliest-offset')");
        env.executeSql(
                "CREATE CATALOG w WITH ('type' = 'paimon', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("CREATE DATABASE IF NOT EXISTS w.d");
        env.executeSql("DROP TABLE IF EXISTS w.d." + table);
        env.executeSql(
                "CREATE TABLE w.d."
                        + table
                        + " (category STRING, n BIGINT"
                        + (tens ? ", tens BIGINT" : "")
                        + ", PRIMARY KEY (category) NOT ENFORCED)");
        StreamStatementSet insert = env.createStatementSet();
        insert.addInsertSql("INSERT INTO w.d." + table + " " + query);
        insert.attachAsDataStream();
        StreamGraph graph = stream.getStreamGraph();
        if (assign) {
            OperatorUids.assign(graph, writerGeneration);
        }
        Map<String, String> ids = new HashMap<>();
        for (var vertex : graph.getJobGraph().getVertices()) {
            String[] names = vertex.getName().split(" -> ");
            var operators = vertex.getOperatorIDs(); // the chain's last operator first
            for (int i = 0; i < names.length; i++) {
                String name = names[i].replaceFirst("^(Source|Global Committer).*", "$1");
                name = name.replaceFirst("^Global ", "").replaceFirst("[\\[ :].*", "");
                ids.put(
                        name,
                        operators.get(names.length - 1 - i).getGeneratedOperatorID().toHexString());
            }
        }
        return ids;
    }
}
