package io.mtables.planner.domain;

import io.mtables.schemas.plan.RefreshPlan;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The last plan made for each table: a projection of {@code mt.refresh.plans}, so that a definition
 * version is planned once, also across restarts.
 */
public class PlanBook {

    private final Map<String, RefreshPlan> plans = new HashMap<>();

    /** Takes in a plan read back or just made; an older one changes nothing. */
    public void record(RefreshPlan plan) {
        RefreshPlan last = plans.get(plan.table());
        if (last == null || plan.definitionVersion() > last.definitionVersion()) {
            plans.put(plan.table(), plan);
        }
    }

    /** Whether a plan exists for this version of the table, or for a newer one. */
    public boolean planned(String table, long definitionVersion) {
        RefreshPlan last = plans.get(table);
        return last != null && last.definitionVersion() >= definitionVersion;
    }

    public Optional<RefreshPlan> last(String table) {
        return Optional.ofNullable(plans.get(table));
    }
}
