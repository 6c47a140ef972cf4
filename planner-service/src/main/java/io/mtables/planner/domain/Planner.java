package io.mtables.planner.domain;

import io.mtables.planning.PlannerSettings;
import io.mtables.planning.QueryAnalysis;
import io.mtables.planning.RefreshModeRules;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Turns definition events into plans, once per definition version. */
public class Planner {

    private final PlanBook book;
    private final PlannerSettings settings;
    private final Function<TableDefinition, QueryAnalysis> analyzer;

    /**
     * @param analyzer asks Flink's planner about a table's query
     */
    public Planner(
            PlanBook book,
            PlannerSettings settings,
            Function<TableDefinition, QueryAnalysis> analyzer) {
        this.book = book;
        this.settings = settings;
        this.analyzer = analyzer;
    }

    /**
     * The plan for a new definition version; empty for source tables and versions already planned.
     */
    public Optional<RefreshPlan> onDefined(TableDefinition table, Instant now) {
        if (table.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || book.planned(table.table(), table.version())) {
            return Optional.empty();
        }
        return Optional.of(RefreshModeRules.plan(table, settings, analyzer.apply(table), now));
    }

    /** The last plan of a dropped materialized table; empty for source tables and repeats. */
    public Optional<RefreshPlan> onDropped(TableDropped dropped, Instant now) {
        if (dropped.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || book.planned(dropped.table(), dropped.version())) {
            return Optional.empty();
        }
        return Optional.of(
                new RefreshPlan(
                        dropped.table(),
                        dropped.version(),
                        RefreshPlan.Status.DROPPED,
                        null,
                        null,
                        false,
                        null,
                        null,
                        Map.of(),
                        null,
                        null,
                        List.of(),
                        List.of(
                                "Dropped: the pipeline stops first, then the table's data is"
                                        + " removed."),
                        List.of(),
                        now));
    }
}
