package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;

/**
 * Runs one small bounded job on a fresh embedded cluster, so that the first table's job does not
 * pay for the cluster's first job: the job master's first job graph, the task manager's first task
 * deployment, its network stack and checkpoints (cold, the first table took 2.1 s from submission
 * to Flink's answer and 1.8-2.2 s more to run, the next ones 0.2-0.3 s and 0.4-0.6 s: bin/bench
 * control-plane). A DataStream job of Flink's and Paimon's classes only, which the cluster has
 * (ours it has not): generated numbers discarded, and 20,000 changes of 5,000 keys written into a
 * scratch Paimon table by Paimon's own sink, with a checkpoint every 200 ms. It needs no planner to
 * build, so it is on the cluster within a second or two of the service's start.
 *
 * <p>The rows are many so that the JIT compiles Paimon's write path (the sort buffer, the ORC
 * writer) before a table needs it: Paimon's classes are the cluster's, shared by every job, so the
 * first table's job runs them compiled. With two rows (loaded, not compiled) the first table's job
 * was 2.7-4.8 s behind Kafka 10-15 s into its load of 2,000 rows a second, and its checkpoints took
 * up to 0.6 s; with these 1.9-2.1 s and 0.1 s (bin/bench freshness).
 */
public final class ClusterWarmUp {

    /** The job's name: not a table's ("mt:<table>:..."), so no table claims it. */
    public static final String JOB_NAME = "mt-warm-up";

    private static final int KEYS = 5_000;
    private static final int UPDATES = 4;

    private ClusterWarmUp() {}

    /**
     * Runs the job on {@code target} and waits for it to finish; its checkpoint goes to a scratch
     * directory on this host (the embedded cluster's), deleted after.
     *
     * @throws IllegalStateException when the job fails or takes longer than {@code timeout}
     */
    public static void run(FlinkTarget target, Duration timeout) {
        Path scratch = JobWarmUp.scratch();
        try {
            Configuration configuration = target.clientConfiguration();
            configuration.setString("execution.checkpointing.interval", "200 ms");
            configuration.setString(
                    "execution.checkpointing.dir",
                    scratch.resolve("checkpoints").toUri().toString());
            // Not getExecutionEnvironment: outside a Flink client that starts a local cluster.
            StreamExecutionEnvironment env = new StreamExecutionEnvironment(configuration);
            env.setParallelism(1);
            env.fromSequence(1, 10_000).sinkTo(new DiscardingSink<>());
            // A table's first tasks also load Paimon's writer and committer: after the numbers
            // alone they ran 1.4-2.3 s after submission, with Paimon's sink warmed 63-147 ms
            // (docs/benchmarks.md, control plane).
            new FlinkSinkBuilder(scratchTable(scratch.resolve("warehouse")))
                    .forRowData(
                            env.fromData(
                                    rows(),
                                    InternalTypeInfo.of(
                                            RowType.of(
                                                    new LogicalType[] {
                                                        new BigIntType(false), new VarCharType()
                                                    },
                                                    new String[] {"k", "v"}))))
                    .parallelism(1)
                    .build();
            JobClient job;
            try {
                job = env.executeAsync(JOB_NAME);
            } catch (Exception e) {
                throw new IllegalStateException("Flink did not take the warm-up job", e);
            }
            try {
                job.getJobExecutionResult().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                job.cancel();
                throw new IllegalStateException("interrupted while the warm-up job ran", e);
            } catch (ExecutionException | TimeoutException e) {
                job.cancel();
                throw new IllegalStateException(
                        "the warm-up job " + job.getJobID() + " failed or took too long", e);
            }
        } finally {
            JobWarmUp.delete(scratch);
        }
    }

    /** Each of {@value #KEYS} keys written {@value #UPDATES} times, as a table's rows change. */
    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>(KEYS * UPDATES);
        for (int i = 0; i < KEYS * UPDATES; i++) {
            rows.add(GenericRowData.of((long) (i % KEYS), StringData.fromString("value " + i)));
        }
        return rows;
    }

    /**
     * A table of primary keys in the scratch directory, written as a materialized table's are
     * (dynamic buckets, ORC files, the input's changelog kept).
     */
    private static Table scratchTable(Path warehouse) {
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        Identifier id = Identifier.create("warm_up", "rows");
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase("warm_up", true);
            catalog.createTable(
                    id,
                    Schema.newBuilder()
                            .column("k", DataTypes.BIGINT().notNull())
                            .column("v", DataTypes.STRING())
                            .primaryKey("k")
                            .option("changelog-producer", "input")
                            .option("file.format", "orc")
                            .build(),
                    true);
            return catalog.getTable(id);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the warm-up's Paimon table", e);
        }
    }
}
