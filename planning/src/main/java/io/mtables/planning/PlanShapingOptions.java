package io.mtables.planning;

import java.time.Duration;
import java.util.Map;

/**
 * Flink options that change a streaming job's plan: the job manager runs every streaming job with
 * them, and the planner analyses queries with them, so the plan analysed is the plan that runs.
 */
public final class PlanShapingOptions {

    private PlanShapingOptions() {}

    /**
     * Change streams are delivered at least once (Debezium re-sends after a restart): a source with
     * a primary key is normalized by key, so a repeated event changes nothing.
     */
    public static Map<String, String> streaming() {
        return Map.of("table.exec.source.cdc-events-duplicate", "true");
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
