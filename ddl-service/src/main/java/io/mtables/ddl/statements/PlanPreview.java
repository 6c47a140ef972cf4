package io.mtables.ddl.statements;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;

/** The plan planner-service would make for a definition (the same rules, the same Flink verdicts). */
@FunctionalInterface
public interface PlanPreview {

  RefreshPlan plan(TableDefinition definition);
}
