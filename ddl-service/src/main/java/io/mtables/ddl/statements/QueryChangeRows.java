package io.mtables.ddl.statements;

import io.mtables.planning.StateCompatibility;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * EXPLAIN's rows for a changed query ({@code evolution.*}): whether the running job's state fits the
 * new query (seed 004's verdict, from Flink's compiled plans) and what the job manager will do.
 */
final class QueryChangeRows {

  /** What the job manager does today on a new query of a CONTINUOUS table (QueryState's fingerprint changes). */
  static final String REBUILD =
      "the streaming job is cancelled and the table is rebuilt from its sources by the new query: readers see it empty while it refills";

  private QueryChangeRows() {}

  /**
   * Appends the rows when {@code changed} changes {@code running}'s query; {@code runningPlan} is
   * the plan the running version is kept fresh by, {@code changedPlan} the one the change would get.
   */
  static void append(
      List<List<Object>> rows, TableDefinition running, Optional<RefreshPlan> runningPlan, TableDefinition changed, RefreshPlan changedPlan, PlanPreview preview) {
    if (running.query().expanded().equals(changed.query().expanded()) && Objects.equals(running.columns(), changed.columns())) {
      return;
    }
    boolean continuousNow = runningPlan.map(plan -> plan.mode() == RefreshPlan.Mode.CONTINUOUS && plan.status() == RefreshPlan.Status.ACTIVE).orElse(false);
    if (!continuousNow) {
      String mode = runningPlan.map(plan -> plan.status() == RefreshPlan.Status.ACTIVE ? String.valueOf(plan.mode()) : String.valueOf(plan.status())).orElse("not planned yet");
      add(rows, "NONE", "the table has no streaming job whose state could be kept (its plan: " + mode + ")",
          changedPlan.mode() == null ? "nothing runs: the new plan is " + changedPlan.status() : "the new query runs from its next " + (changedPlan.mode() == RefreshPlan.Mode.FULL ? "refresh" : "start, from its sources"));
      return;
    }
    if (changedPlan.mode() != RefreshPlan.Mode.CONTINUOUS) {
      add(rows, "NONE", "the new query is planned " + (changedPlan.mode() == null ? changedPlan.status() : changedPlan.mode()) + ", which keeps no streaming state",
          "the streaming job is cancelled and its state dropped" + (changedPlan.mode() == RefreshPlan.Mode.FULL ? "; FULL refreshes of the new query follow" : ""));
      return;
    }
    StateCompatibility.Result verdict = preview.stateVerdict(running, changed);
    add(rows, verdict.verdict().name(), verdict.reason(),
        verdict.verdict() == StateCompatibility.Verdict.COMPATIBLE ? REBUILD + " (the state is not carried over, though Flink could restore it)" : REBUILD);
  }

  private static void add(List<List<Object>> rows, String verdict, String reason, String action) {
    rows.add(Arrays.asList("evolution.verdict", verdict));
    rows.add(Arrays.asList("evolution.reason", reason));
    rows.add(Arrays.asList("evolution.action", action));
  }
}
