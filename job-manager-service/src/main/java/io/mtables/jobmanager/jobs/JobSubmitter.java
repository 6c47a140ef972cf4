package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.planning.BoundedReads;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.catalog.ObjectPath;
import org.jboss.logging.Logger;

/**
 * Compiles a table's SQL in this JVM and submits the job to the target cluster; the tables' Paimon
 * tables themselves are {@link #tables()}'s. A streaming job has a TableEnvironment of its own;
 * FULL refreshes share environments kept ready ({@link ReadyBatchEnvironments}). Each is used on
 * the calling thread only (Flink's planner keeps per-thread state), whose context class loader must
 * see the connectors.
 */
public class JobSubmitter {

    private static final Logger LOG = Logger.getLogger(JobSubmitter.class);

    private final FlinkTarget target;
    private final Warehouse warehouse;
    private final ReadyBatchEnvironments batch;
    private final StreamingGraphs graphs;
    private final PaimonTables tables;

    private final KafkaSourceCredentials credentials;

    /** A submitter whose jobs read a plaintext broker. */
    public JobSubmitter(FlinkTarget target, Warehouse warehouse) {
        this(target, warehouse, KafkaSourceCredentials.NONE);
    }

    public JobSubmitter(
            FlinkTarget target, Warehouse warehouse, KafkaSourceCredentials credentials) {
        this.target = target;
        this.warehouse = warehouse;
        this.credentials = credentials;
        this.batch = new ReadyBatchEnvironments(target.clientConfiguration(), warehouse);
        this.graphs = new StreamingGraphs(warehouse, credentials);
        this.tables = new PaimonTables(warehouse);
    }

    /** The tables' Paimon tables: created, staged, swapped in, dropped, and whose rows they are. */
    public PaimonTables tables() {
        return tables;
    }

    /**
     * {@code work} in a ready batch environment, which it leaves as it found it (nothing declared):
     * given back for the next job.
     */
    <T> T inBatch(Map<String, String> jobOptions, Function<TableEnvironment, T> work) {
        TableEnvironment env = batch.take(jobOptions);
        T result = work.apply(env);
        batch.release(jobOptions, env);
        return result;
    }

    /**
     * Waits for a batch job this service cannot go on without ({@link BatchJobWaits}); one that
     * fails or takes longer is cancelled and thrown.
     *
     * @param what the job, in words, for the failure's message
     */
    void awaitOrCancel(JobClient job, Duration timeout, String what) {
        BatchJobWaits.awaitOrCancel(job, target, timeout, what);
    }

    /** Submits the CONTINUOUS job: an INSERT INTO that runs until stopped. */
    public JobClient submitStreaming(
            TableDefinition definition, RefreshPlan plan, Map<String, String> jobOptions) {
        return submitStreaming(definition, plan, jobOptions, definition.table());
    }

    /**
     * Submits the CONTINUOUS job writing the Paimon table named {@code target} (the table's own, or
     * its staged table).
     */
    public JobClient submitStreaming(
            TableDefinition definition,
            RefreshPlan plan,
            Map<String, String> jobOptions,
            String target) {
        long start = System.nanoTime();
        StreamingGraphs.Prepared job =
                graphs.prepare(definition, plan, configuration(jobOptions), target);
        long prepared = System.nanoTime();
        JobClient client;
        try {
            client = job.environment().executeAsync(job.graph());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Flink did not take the streaming job of " + definition.table(), e);
        }
        // Where a CREATE's time goes in this service (docs/benchmarks.md, control plane).
        LOG.infof(
                "the streaming job of %s: compiled in %d ms, taken by Flink in %d ms",
                definition.table(),
                (prepared - start) / 1_000_000,
                (System.nanoTime() - prepared) / 1_000_000);
        return client;
    }

    /**
     * The operators of the saved state {@code restoreFrom} that hold state and have no operator in
     * the streaming job these arguments would submit into {@code target} (the table's own Paimon
     * table, or its staged table: {@link StreamingGraphs#stateWithoutOperator}).
     */
    public List<String> stateWithoutOperator(
            TableDefinition definition,
            RefreshPlan plan,
            Map<String, String> jobOptions,
            CheckpointMetadata restoreFrom,
            String target) {
        return graphs.stateWithoutOperator(
                definition, plan, configuration(jobOptions), restoreFrom, target);
    }

    /**
     * Submits one FULL refresh, read as a batch: {@code overwrite} is its INSERT OVERWRITE (of the
     * table, a partition or some partitions: JobSql), and the materialized tables in {@code
     * pinnedInputs} are read at those snapshots. Compiled in an environment kept ready between
     * refreshes, on the caller's thread (always the same one).
     */
    public JobClient submitRefresh(
            TableDefinition definition,
            String overwrite,
            Map<String, Long> pinnedInputs,
            Map<String, String> jobOptions) {
        TableEnvironment env = batch.take(jobOptions);
        // Given back only once clean: one that failed half-way may hold part of this refresh's
        // sources.
        JobSql.declareSources(definition, pinnedInputs).forEach(env::executeSql);
        credentials.apply(env, definition);
        for (var source : definition.sources()) {
            if (source.kind() == TableDefinition.Kind.SOURCE_TABLE) {
                bound(env, source.table()); // a materialized table is read at its pinned or latest
                // snapshot anyway
            }
        }
        JobClient job = jobOf(env.executeSql(overwrite));
        if (undeclareSources(env, definition)) {
            batch.release(jobOptions, env);
        }
        return job;
    }

    /**
     * The sources leave the environment's default catalog, so the next refresh declares its own.
     * The job is submitted by then: a failure here only means the environment is not reused.
     */
    private static boolean undeclareSources(TableEnvironment env, TableDefinition definition) {
        try {
            for (var source : definition.sources()) {
                TableId id = TableId.of(source.table());
                env.getCatalog(id.catalog())
                        .orElseThrow()
                        .dropTable(new ObjectPath(id.database(), id.name()), true);
            }
            return true;
        } catch (Exception e) {
            LOG.warnf(
                    "a FULL refresh's environment is not reused: removing the sources of %s failed"
                            + " (%s)",
                    definition.table(), e.getMessage());
            return false;
        }
    }

    /** A batch refresh reads each source up to where it stands now. */
    private static void bound(TableEnvironment env, String table) {
        TableId id = TableId.of(table);
        DeclaredTables.set(env, id, BoundedReads.extraOptions(DeclaredTables.options(env, id)));
    }

    private Configuration configuration(Map<String, String> jobOptions) {
        Configuration configuration = target.clientConfiguration();
        jobOptions.forEach(configuration::setString);
        return configuration;
    }

    private static TableEnvironment environment(Configuration configuration, boolean streaming) {
        EnvironmentSettings.Builder settings =
                EnvironmentSettings.newInstance().withConfiguration(configuration);
        return TableEnvironment.create(
                (streaming ? settings.inStreamingMode() : settings.inBatchMode()).build());
    }

    static JobClient jobOf(TableResult result) {
        return result.getJobClient()
                .orElseThrow(
                        () -> new IllegalStateException("Flink returned no job for the INSERT"));
    }
}
