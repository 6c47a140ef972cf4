package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * The rewrite of the rows a restored table's old query wrote into its new query's (a COMPATIBLE
 * change, docs/evolution.md): one batch INSERT OVERWRITE of the table with {@code writtenRows}'
 * answer over its own rows. Compiled into a job graph while the old job still serves the table, and
 * submitted once it stopped: readers see no new data from the old job's stop to the restored job's
 * first commit, and compiling it there took about a second of that (bin/bench evolution). The graph
 * fixes no snapshot: Paimon's batch source plans what it reads when the job starts, so the rows the
 * old job commits after the compile are rewritten too.
 */
public final class WrittenRowsRewrites {

    private final FlinkTarget target;
    private final Warehouse warehouse;

    public WrittenRowsRewrites(FlinkTarget target, Warehouse warehouse) {
        this.target = target;
        this.warehouse = warehouse;
    }

    /** A rewrite compiled and not submitted yet, with the environment that submits it. */
    public record Compiled(
            String table, StreamExecutionEnvironment environment, StreamGraph graph) {}

    /**
     * Compiles the rewrite of the table's rows, on the calling thread (Flink's planner keeps
     * per-thread state).
     *
     * @param oldColumns the columns the old query wrote ({@link JobSubmitter#appendColumns})
     */
    public Compiled compile(
            TableDefinition definition,
            RefreshPlan plan,
            String writtenRows,
            List<String> oldColumns,
            Map<String, String> jobOptions) {
        return compile(
                definition, plan, writtenRows, oldColumns, jobOptions, null, definition.table());
    }

    /**
     * Compiles the rewrite of the table's rows as Paimon's snapshot {@code snapshotId} holds them
     * into the Paimon table {@code into} (a staged table restored beside the table's own).
     */
    public Compiled compile(
            TableDefinition definition,
            RefreshPlan plan,
            String writtenRows,
            List<String> oldColumns,
            Map<String, String> jobOptions,
            Long snapshotId,
            String into) {
        Configuration configuration = target.clientConfiguration();
        jobOptions.forEach(configuration::setString);
        configuration.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        // Constructed, not got: getExecutionEnvironment would start a local cluster here instead
        // of submitting to the configured one.
        StreamExecutionEnvironment stream = new StreamExecutionEnvironment(configuration);
        StreamTableEnvironment env =
                StreamTableEnvironment.create(
                        stream, EnvironmentSettings.newInstance().inBatchMode().build());
        env.executeSql(JobSql.createCatalog(warehouse));
        env.executeSql(JobSql.writtenView(definition.table(), oldColumns, snapshotId));
        StreamStatementSet rewrite = env.createStatementSet();
        rewrite.addInsertSql(JobSql.rewriteWritten(definition, plan, writtenRows, into));
        rewrite.attachAsDataStream();
        return new Compiled(into, stream, stream.getStreamGraph());
    }

    /**
     * Submits a compiled rewrite and waits for its end, at most {@code timeout}; one that fails or
     * takes longer is cancelled.
     *
     * @throws IllegalStateException when the job fails, takes longer, or the wait is interrupted
     */
    public void run(Compiled rewrite, Duration timeout) {
        JobClient job;
        try {
            job = rewrite.environment().executeAsync(rewrite.graph());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Flink did not take the rewrite of the rows of " + rewrite.table(), e);
        }
        BatchJobWaits.awaitOrCancel(job, target, timeout, "the rewrite of the written rows");
    }
}
