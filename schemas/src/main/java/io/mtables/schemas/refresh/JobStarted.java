package io.mtables.schemas.refresh;

import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;

/**
 * A table's Flink job started ({@code JobStarted.v1} on {@code mt.refresh.events}, keyed by {@link
 * #table}): the streaming job of a CONTINUOUS table, or the batch job of one FULL refresh.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version the job runs
 * @param mode CONTINUOUS or FULL
 * @param jobId Flink's job id
 * @param jobName Flink's job name ({@link io.mtables.schemas.flink.JobNames})
 * @param restoredFrom the savepoint or checkpoint the job restored its state from; null when new
 * @param startedAt when the job was submitted
 */
public record JobStarted(
        String table,
        long definitionVersion,
        RefreshPlan.Mode mode,
        String jobId,
        String jobName,
        String restoredFrom,
        Instant startedAt) {}
