package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import java.time.Duration;
import java.util.Map;

/**
 * Flink options that change a streaming job's plan: the job manager runs every streaming job with
 * them, and the planner analyses queries with them, so the plan analysed is the plan that runs.
 */
public final class PlanShapingOptions {

    private PlanShapingOptions() {}

    /**
     * Where one of {@code table}'s change streams may repeat an event ({@link
     * ChangeStreamDelivery}), Flink normalizes every keyed change stream by key, so a repeated
     * event changes nothing; where each is read exactly once, none is, and the job holds no second
     * copy of their rows.
     */
    public static Map<String, String> streaming(TableDefinition table) {
        return Map.of(
                "table.exec.source.cdc-events-duplicate",
                String.valueOf(!ChangeStreamDelivery.atLeastOnce(table).isEmpty()));
    }

    /**
     * A plan's mini-batches (see {@link MiniBatches}): on, holding changes up to {@code latency}.
     */
    public static Map<String, String> miniBatch(Duration latency) {
        return Map.of(
                "table.exec.mini-batch.enabled",
                "true",
                "table.exec.mini-batch.allow-latency",
                latency.toMillis() + " ms",
                "table.exec.mini-batch.size",
                String.valueOf(MiniBatches.SIZE));
    }
}
