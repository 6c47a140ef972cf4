package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.planning.Warehouse;
import io.mtables.planning.WarmUp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Compiles {@link WarmUp}'s streaming job once at the job manager's start, as a table's job is
 * compiled (its Paimon table created, the sources declared, the INSERT planned, code generated, the
 * job graph built) but into a scratch warehouse of its own and never submitted: the first user's
 * table then finds Flink's planner, the connectors and Paimon loaded and compiled.
 */
public final class JobWarmUp {

    /** The cluster warm-up job's name: not a table's ("mt:<table>:..."), so no table claims it. */
    public static final String CLUSTER_JOB_NAME = "mt-warm-up";

    private JobWarmUp() {}

    /**
     * Compiles the warm-up job with {@code jobOptions} (a table's streaming options) for {@code
     * target}, then deletes the scratch warehouse.
     */
    public static void run(FlinkTarget target, Map<String, String> jobOptions) {
        Path scratch = scratch();
        try {
            Warehouse warehouse = Warehouse.at(scratch.toUri().toString());
            new JobSubmitter(target, warehouse).ensureTable(WarmUp.definition(), WarmUp.plan());
            Configuration configuration = target.clientConfiguration();
            jobOptions.forEach(configuration::setString);
            int vertices =
                    new StreamingGraphs(warehouse)
                            .prepare(
                                    WarmUp.definition(), WarmUp.plan(), configuration, WarmUp.TABLE)
                            .graph()
                            .getJobGraph()
                            .getNumberOfVertices();
            if (vertices == 0) {
                throw new IllegalStateException("the warm-up job's graph is empty");
            }
        } finally {
            delete(scratch);
        }
    }

    /**
     * Runs a small bounded job on {@code target} and waits for it: 100 generated rows counted by
     * category into a Paimon table of a scratch warehouse, a streaming job with checkpoints as a
     * table's job is. A fresh cluster's first job is slow to deploy and run (its task manager loads
     * and compiles Flink's operators, Paimon's writer and the generated code: the first table took
     * 1.4 s from submitted to running, the next ones 0.3 s, bin/bench control-plane); this one pays
     * for that instead. The warehouse must be one the cluster reaches as the job manager does (the
     * embedded cluster, on this host).
     *
     * @throws IllegalStateException when the job fails or takes longer than {@code timeout}
     */
    public static void runOnCluster(FlinkTarget target, Duration timeout) {
        Path scratch = scratch();
        try {
            Warehouse warehouse = Warehouse.at(scratch.toUri().toString());
            Configuration configuration = target.clientConfiguration();
            configuration.setString("pipeline.name", CLUSTER_JOB_NAME);
            configuration.setString("parallelism.default", "1");
            configuration.setString("execution.checkpointing.interval", "1 s");
            configuration.setString(
                    "execution.checkpointing.dir",
                    scratch.resolve("checkpoints").toUri().toString());
            configuration.setString("table.exec.sink.upsert-materialize", "NONE");
            TableEnvironment env =
                    TableEnvironment.create(
                            EnvironmentSettings.newInstance()
                                    .withConfiguration(configuration)
                                    .inStreamingMode()
                                    .build());
            env.executeSql(JobSql.createCatalog(warehouse));
            env.executeSql(JobSql.createDatabase(WarmUp.TABLE));
            String sink = JobSql.paimonName(WarmUp.TABLE);
            env.executeSql(
                    "CREATE TABLE "
                            + sink
                            + " (category STRING NOT NULL, n BIGINT, PRIMARY KEY (category) NOT"
                            + " ENFORCED)");
            env.executeSql(
                    "CREATE TEMPORARY TABLE generated (id BIGINT, category STRING NOT NULL) WITH"
                            + " ('connector' = 'datagen', 'number-of-rows' = '100',"
                            + " 'fields.category.length' = '1')");
            JobClient job =
                    env.executeSql(
                                    "INSERT INTO "
                                            + sink
                                            + " SELECT category, COUNT(*) FROM generated GROUP BY"
                                            + " category")
                            .getJobClient()
                            .orElseThrow(() -> new IllegalStateException("Flink returned no job"));
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
            delete(scratch);
        }
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory("mt-warm-up-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the warm-up's scratch warehouse", e);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the warm-up's scratch warehouse", e);
        }
    }
}
