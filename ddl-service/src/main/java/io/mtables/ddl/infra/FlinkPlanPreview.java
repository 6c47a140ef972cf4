package io.mtables.ddl.infra;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.statements.PlanPreview;
import io.mtables.planning.FlinkQueryAnalyzer;
import io.mtables.planning.PlannerSettings;
import io.mtables.planning.QueryAnalysis;
import io.mtables.planning.RefreshModeRules;
import io.mtables.planning.StateCompatibility;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The plan planner-service would make of a definition, made here with its own rules and Flink's
 * planner (EXPLAIN, and the preview a CREATE hands on), over the upstream plans ddl-service has
 * seen.
 */
final class FlinkPlanPreview implements PlanPreview {

    private final FlinkQueryAnalyzer analyzer;
    private final PlannerSettings settings;
    private final Clock clock;
    private final PlanProjection plans;

    FlinkPlanPreview(
            FlinkQueryAnalyzer analyzer,
            PlannerSettings settings,
            Clock clock,
            PlanProjection plans) {
        this.analyzer = analyzer;
        this.settings = settings;
        this.clock = clock;
        this.plans = plans;
    }

    @Override
    public Preview preview(TableDefinition table) {
        // Which upstream plans it was made with: planner-service takes the plan only when its own
        // are the same versions.
        Map<String, Long> upstreamVersions = new ConcurrentHashMap<>();
        var analysis =
                analyzer.analyze(
                        table,
                        upstream -> {
                            var plan = plans.find(upstream);
                            upstreamVersions.put(
                                    upstream, plan.map(RefreshPlan::definitionVersion).orElse(0L));
                            return plan;
                        });
        return new Preview(
                RefreshModeRules.plan(table, settings, analysis, clock.instant()),
                analysis.verdict() == QueryAnalysis.Verdict.BLOCKED,
                new TreeMap<>(upstreamVersions),
                settings.toContract());
    }

    @Override
    public StateCompatibility.Result stateVerdict(
            TableDefinition running, TableDefinition changed) {
        return analyzer.stateVerdict(running, changed, plans::find);
    }

    @Override
    public Set<String> windowEnds(TableDefinition table) {
        return analyzer.windowEnds(table, plans::find);
    }
}
