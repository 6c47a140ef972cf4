package io.mtables.planner.domain;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns definition events into plans, once per definition version. */
public class Planner {

  private final PlanBook book;
  private final PlannerSettings settings;
  private final java.util.function.Function<TableDefinition, StreamingAnalysis> streaming;

  /**
   * @param streaming asks Flink's planner whether a table's query runs as a stream
   */
  public Planner(PlanBook book, PlannerSettings settings, java.util.function.Function<TableDefinition, StreamingAnalysis> streaming) {
    this.book = book;
    this.settings = settings;
    this.streaming = streaming;
  }

  /** The plan for a new definition version; empty for source tables and versions already planned. */
  public Optional<RefreshPlan> onDefined(TableDefinition table, Instant now) {
    if (table.kind() != TableDefinition.Kind.MATERIALIZED_TABLE || book.planned(table.table(), table.version())) {
      return Optional.empty();
    }
    return Optional.of(RefreshModeRules.plan(table, settings, streaming.apply(table), now));
  }

  /** The last plan of a dropped materialized table; empty for source tables and repeats. */
  public Optional<RefreshPlan> onDropped(TableDropped dropped, Instant now) {
    if (dropped.kind() != TableDefinition.Kind.MATERIALIZED_TABLE || book.planned(dropped.table(), dropped.version())) {
      return Optional.empty();
    }
    return Optional.of(
        new RefreshPlan(
            dropped.table(), dropped.version(), RefreshPlan.Status.DROPPED, null, null, false, null, null, Map.of(), null,
            List.of("Dropped: the pipeline stops first, then the table's data is removed."), List.of(), now));
  }
}
