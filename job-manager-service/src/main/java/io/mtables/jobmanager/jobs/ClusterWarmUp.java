package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
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
 * Runs two small bounded jobs on a fresh embedded cluster, so that the first table's job does not
 * pay for the cluster's first job. Each is a DataStream job of Flink's and Paimon's classes only,
 * which the cluster has (ours it has not): rows written into a scratch Paimon table by Paimon's own
 * sink, with a checkpoint every 200 ms. It needs no planner to build, so the first is on the
 * cluster within a second or two of the service's start.
 *
 * <p>The first writes two rows and discards generated numbers: the job master's first job graph,
 * the task manager's first task deployment, its network stack, checkpoints and Paimon's writer and
 * committer loaded (cold, the first table took 2.1 s from submission to Flink's answer and 1.8-2.2
 * s more to run; after it, its tasks ran 63-147 ms after submission: bin/bench control-plane).
 *
 * <p>The second, once the job compiler's warm-up has ended and no record is being acted on, writes
 * 20,000 changes of 5,000 keys, so that the JIT compiles Paimon's write path (the sort buffer, the
 * ORC writer) before a table runs it often: Paimon's classes are the cluster's, shared by every
 * job. With two rows only, the first table's job was 2.7-4.8 s behind Kafka 10-15 s into its load
 * of 2,000 rows a second, and its checkpoints took up to 0.6 s; with the changes 1.5-2.1 s and 0.1
 * s (bin/bench freshness). Run beside the first table instead, they held its tasks back (659 ms to
 * run instead of 63).
 */
public final class ClusterWarmUp {

    /** The jobs' name: not a table's ("mt:<table>:..."), so no table claims them. */
    public static final String JOB_NAME = "mt-warm-up";

    private static final int LOADING_ROWS = 2;
    private static final int COMPILING_CHANGES = 20_000;
    private static final int KEYS = 5_000;

    private ClusterWarmUp() {}

    /**
     * The first job: generated numbers discarded and two rows written, waited for at most {@code
     * timeout}; its checkpoints go to a scratch directory on this host (the embedded cluster's),
     * deleted after.
     *
     * @throws IllegalStateException when the job fails or takes longer than {@code timeout}
     */
    public static void loadClasses(FlinkTarget target, Duration timeout) {
        runJob(target, LOADING_ROWS, true, timeout);
    }

    /**
     * The second job, once {@code idle} says no record is being acted on: 20,000 changes written,
     * waited for as the first.
     *
     * @throws IllegalStateException when the job fails or takes longer than {@code timeout}
     */
    public static void compileWrites(FlinkTarget target, Duration timeout, BooleanSupplier idle) {
        JobWarmUp.awaitIdle(idle);
        runJob(target, COMPILING_CHANGES, false, timeout);
    }

    private static void runJob(FlinkTarget target, int changes, boolean numbers, Duration timeout) {
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
            if (numbers) {
                env.fromSequence(1, 10_000).sinkTo(new DiscardingSink<>());
            }
            new FlinkSinkBuilder(scratchTable(scratch.resolve("warehouse")))
                    .forRowData(
                            env.fromData(
                                    rows(changes),
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

    /** {@code changes} rows over at most {@value #KEYS} keys, as a table's rows change. */
    private static List<RowData> rows(int changes) {
        List<RowData> rows = new ArrayList<>(changes);
        for (int i = 0; i < changes; i++) {
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
