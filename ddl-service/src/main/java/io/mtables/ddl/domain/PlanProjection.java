package io.mtables.ddl.domain;

import io.mtables.schemas.plan.RefreshPlan;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The latest refresh plan of each table, as planner-service published it: what DESCRIBE shows. */
public class PlanProjection {

    private final Map<String, RefreshPlan> plans = new ConcurrentHashMap<>();

    /** Takes in a plan; a plan for an older definition version changes nothing. */
    public void apply(RefreshPlan plan) {
        plans.merge(
                plan.table(),
                plan,
                (known, next) ->
                        next.definitionVersion() >= known.definitionVersion() ? next : known);
    }

    public Optional<RefreshPlan> find(String table) {
        return Optional.ofNullable(plans.get(table));
    }
}
