package io.mtables.ddl.statements;

import io.mtables.planning.StateCompatibility;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What would happen to a definition: the plan planner-service would make (the same rules, the same
 * Flink verdicts), and whether a running streaming job's state fits a changed query.
 */
public interface PlanPreview {

    Preview preview(TableDefinition definition);

    /**
     * Whether the state of {@code running}'s streaming job fits {@code changed}'s query (Flink's
     * compiled plans compared).
     */
    StateCompatibility.Result stateVerdict(TableDefinition running, TableDefinition changed);

    /**
     * The definition's columns that hold the end of the window each row belongs to (Flink's
     * compiled plan traced: {@code WindowEnds}); empty when none, or when Flink cannot compile it.
     */
    Set<String> windowEnds(TableDefinition definition);

    /**
     * @param plan the plan planner-service would make now
     * @param waitsForUpstream whether a refusal is only for now: ddl-service has not seen a
     *     runnable plan of an upstream materialized table yet (planner-service, which plans the
     *     upstream first, decides)
     * @param upstreamVersions each materialized table the query reads: the definition version of
     *     the plan it was made with, 0 for none
     * @param settings the planner settings it was made with ({@code PlannerSettings} printed)
     */
    record Preview(
            RefreshPlan plan,
            boolean waitsForUpstream,
            Map<String, Long> upstreamVersions,
            String settings) {

        /**
         * Whether planner-service would refuse the definition for what it says, not for a plan
         * ddl-service has not seen yet.
         */
        public boolean refusedForGood() {
            return plan.status() == RefreshPlan.Status.REFUSED && !waitsForUpstream;
        }

        /**
         * The plan as the definition carries it to planner-service, which takes it when it would
         * plan with the same; empty when it must plan itself (an upstream plan not seen yet).
         */
        public Optional<TableDefinition.PreviewedPlan> handedOn() {
            return waitsForUpstream
                    ? Optional.empty()
                    : Optional.of(
                            new TableDefinition.PreviewedPlan(plan, upstreamVersions, settings));
        }
    }
}
