package io.mtables.planner.domain;

import io.mtables.planning.PlannerSettings;
import io.mtables.planning.QueryAnalysis;
import io.mtables.planning.RefreshModeRules;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
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
     * A plan made for a definition version.
     *
     * @param previewTaken whether it is ddl-service's previewed plan ({@link #takesPreview})
     */
    public record Planned(RefreshPlan plan, boolean previewTaken) {}

    /**
     * The plan for a new definition version; empty for source tables and versions already planned.
     */
    public Optional<RefreshPlan> onDefined(TableDefinition table, Instant now) {
        return plan(table, now).map(Planned::plan);
    }

    /** The same, saying whether ddl-service's previewed plan was taken. */
    public Optional<Planned> plan(TableDefinition table, Instant now) {
        if (table.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || book.planned(table.table(), table.version())) {
            return Optional.empty();
        }
        if (takesPreview(table)) {
            return Optional.of(new Planned(table.previewedPlan().plan().withPlannedAt(now), true));
        }
        return Optional.of(
                new Planned(
                        RefreshModeRules.plan(table, settings, analyzer.apply(table), now), false));
    }

    /**
     * Whether the plan ddl-service made of this version when it accepted it is the one this planner
     * would make: the same rules on the same settings, and Flink's same verdicts on the same query
     * over the same upstream plans (each upstream's plan of the version the preview was made with:
     * one plan per version). Then Flink is not asked the same again.
     */
    public boolean takesPreview(TableDefinition table) {
        TableDefinition.PreviewedPlan preview = table.previewedPlan();
        if (preview == null
                || !preview.plan().table().equals(table.table())
                || preview.plan().definitionVersion() != table.version()
                || !PlannerSettings.fromContract(preview.settings())
                        .filter(settings::equals)
                        .isPresent()) {
            return false;
        }
        return preview.upstreamVersions().entrySet().stream()
                .allMatch(
                        upstream ->
                                book.last(upstream.getKey())
                                        .map(RefreshPlan::definitionVersion)
                                        .orElse(0L)
                                        .equals(upstream.getValue()));
    }

    /** The last plan of a dropped materialized table; empty for source tables and repeats. */
    public Optional<RefreshPlan> onDropped(TableDropped dropped, Instant now) {
        if (dropped.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || book.planned(dropped.table(), dropped.version())) {
            return Optional.empty();
        }
        return Optional.of(
                RefreshPlanBuilder.builder()
                        .table(dropped.table())
                        .definitionVersion(dropped.version())
                        .status(RefreshPlan.Status.DROPPED)
                        .mode(null)
                        .freshness(null)
                        .freshnessDeclared(false)
                        .checkpointInterval(null)
                        .cron(null)
                        .partitionFormatters(Map.of())
                        .changelogMode(null)
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .reasons(
                                List.of(
                                        "Dropped: the pipeline stops first, then the table's data"
                                                + " is removed."))
                        .warnings(List.of())
                        .plannedAt(now)
                        .build());
    }
}
