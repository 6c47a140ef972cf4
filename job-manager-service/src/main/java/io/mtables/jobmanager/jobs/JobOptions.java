package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.planning.PlanShapingOptions;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Flink settings of a table's jobs, by Flink's own option names. */
public final class JobOptions {

    /** Checkpoints in a row that may fail before the job itself fails and restarts. */
    static final int TOLERABLE_FAILED_CHECKPOINTS = 3;

    private JobOptions() {}

    /**
     * The streaming job: a checkpoint (= a Paimon commit) every freshness period, exactly once,
     * checkpoints retained so a lost cluster loses nothing, and Flink's restart strategy with
     * backoff that gives up after the configured failures in a row.
     *
     * @param restoreFrom a savepoint or checkpoint to restore, or null
     */
    public static Map<String, String> streaming(
            TableDefinition definition,
            RefreshPlan plan,
            JobManagerConfig config,
            Locations locations,
            String restoreFrom) {
        Map<String, String> options = common(config);
        options.put("pipeline.name", JobSql.streamingJobName(definition));
        options.put(
                "execution.checkpointing.interval", plan.checkpointInterval().toMillis() + " ms");
        options.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        options.put("execution.checkpointing.dir", locations.checkpointDir(definition));
        options.put(
                "execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        options.put("execution.checkpointing.num-retained", "2");
        // A checkpoint that fails to upload (an object store's timeout) delays the next commit; it
        // must not fail the job, whose restart would throw away the work since the last one
        // (bin/bench throughput-session: one S3 read timeout restarted the job). Consecutive
        // failures still do.
        options.put(
                "execution.checkpointing.tolerable-failed-checkpoints",
                String.valueOf(TOLERABLE_FAILED_CHECKPOINTS));
        options.put("restart-strategy.type", "exponential-delay");
        options.put("restart-strategy.exponential-delay.initial-backoff", "1 s");
        options.put("restart-strategy.exponential-delay.max-backoff", "1 min");
        options.put(
                "restart-strategy.exponential-delay.attempts-before-reset-backoff",
                String.valueOf(config.jobs().maxConsecutiveFailures()));
        // Chained operators hand each record on as it is instead of a copy of it: the copies
        // were 16 % of the join chain's CPU (bin/bench throughput, docs/benchmarks.md). Safe for
        // these jobs: they are Flink's SQL operators and Paimon's sink only; an operator that
        // keeps records (keyed state, a mini-batch's buffer) starts its chain and so receives
        // records deserialized for it, key selectors copy the keys they keep, and Paimon's writer
        // serializes each row into its buffer at once (Paimon's own jobs run with reuse on).
        options.put("pipeline.object-reuse", "true");
        // Paimon merges by key itself; Flink's upsert materializer in front of it is refused by
        // Paimon.
        options.put("table.exec.sink.upsert-materialize", "NONE");
        options.putAll(PlanShapingOptions.streaming(definition));
        if (plan.miniBatch() != null) {
            options.putAll(PlanShapingOptions.miniBatch(plan.miniBatch()));
        }
        if (restoreFrom != null) {
            options.put("execution.state-recovery.path", restoreFrom);
        }
        options.putAll(definition.resumeOptions() == null ? Map.of() : definition.resumeOptions());
        return options;
    }

    /** One FULL refresh, as a batch job. */
    public static Map<String, String> refresh(
            TableDefinition definition, String refreshId, JobManagerConfig config) {
        Map<String, String> options = common(config);
        options.put("pipeline.name", JobSql.refreshJobName(definition, refreshId));
        options.put(
                "restart-strategy.type",
                "none"); // a failed refresh is counted and retried by the next tick
        options.putAll(definition.resumeOptions() == null ? Map.of() : definition.resumeOptions());
        return options;
    }

    /**
     * The rewrite of a restored table's written rows, one batch job. Flink's batch default (each
     * stage after the last one ended) is kept: its hybrid shuffle failed on the embedded cluster (a
     * NullPointerException creating the result partition), and with pipelined exchanges its batch
     * scheduler never deployed the read's consumer.
     */
    public static Map<String, String> rewrite(TableDefinition definition, JobManagerConfig config) {
        return refresh(definition, "rows-v" + definition.version(), config);
    }

    private static Map<String, String> common(JobManagerConfig config) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("parallelism.default", String.valueOf(config.flink().parallelism()));
        options.put("state.backend.type", config.flink().stateBackend());
        if (config.flink().stateBackend().equals("rocksdb")) {
            // Each checkpoint uploads only the files new since the last: its cost follows the
            // changes, not the state's size.
            options.put("execution.checkpointing.incremental", "true");
        }
        return options;
    }
}
