package io.mtables.planning;

import io.mtables.schemas.plan.RefreshPlan;
import java.util.Optional;

/**
 * The current plans of the materialized tables a query may read: how each is written decides how it
 * can be read.
 */
@FunctionalInterface
public interface UpstreamPlans {

    /** No plans known: queries over materialized tables are blocked. */
    UpstreamPlans NONE = table -> Optional.empty();

    Optional<RefreshPlan> find(String table);
}
