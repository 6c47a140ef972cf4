package io.mtables.planner.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.PlannerSettings;
import io.mtables.planning.QueryAnalysis;
import io.mtables.planning.RefreshModeRules;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When planner-service takes the plan ddl-service previewed, and when it asks Flink itself. */
class PlannerTest {

    private static final String TABLE = "default_catalog.shop.summary";
    private static final String UPSTREAM = "default_catalog.shop.orders_clean";
    private static final Instant ACCEPTED = Instant.parse("2026-12-05T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-05T10:00:01Z");

    private final PlannerSettings settings = PlannerSettings.defaults();
    private final PlanBook book = new PlanBook();
    private final List<String> asked = new ArrayList<>();
    private final Planner planner =
            new Planner(
                    book,
                    settings,
                    table -> {
                        asked.add(table.table());
                        return QueryAnalysis.streamable("[I,UA]");
                    });

    @Test
    void aPreviewMadeWithTheSameSettingsAndUpstreamPlansIsTakenWithoutAskingFlink() {
        book.record(upstreamPlan(3));
        RefreshPlan previewed = preview();
        TableDefinition defined =
                definition(1)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        previewed, Map.of(UPSTREAM, 3L), settings.toContract()));

        RefreshPlan plan = planner.onDefined(defined, NOW).orElseThrow();

        assertThat(asked).isEmpty();
        assertThat(plan).isEqualTo(previewed.withPlannedAt(NOW));
        assertThat(plan.reasons()).isEqualTo(previewed.reasons());
    }

    @Test
    void aPreviewMadeWithAnotherUpstreamPlanOrOtherSettingsIsPlannedAgain() {
        book.record(upstreamPlan(4)); // planned again since ddl-service previewed over v3
        TableDefinition overOlderUpstream =
                definition(1)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        preview(), Map.of(UPSTREAM, 3L), settings.toContract()));
        TableDefinition otherSettings =
                definition(2)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        preview(2),
                                        Map.of(UPSTREAM, 4L),
                                        new PlannerSettings(
                                                        settings.freshnessThreshold()
                                                                .plusMinutes(1),
                                                        settings.defaultContinuousFreshness(),
                                                        settings.defaultFullFreshness())
                                                .toContract()));

        assertThat(planner.takesPreview(overOlderUpstream)).isFalse();
        assertThat(planner.onDefined(overOlderUpstream, NOW)).isPresent();
        assertThat(planner.takesPreview(otherSettings)).isFalse();
        assertThat(planner.onDefined(otherSettings, NOW)).isPresent();
        assertThat(asked).containsExactly(TABLE, TABLE);
    }

    /** Records written before the settings had the contract's form carry the Java record's text. */
    @Test
    void aPreviewWhoseSettingsAreNotInTheContractsFormIsPlannedAgain() {
        book.record(upstreamPlan(3));
        TableDefinition printed =
                definition(1)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        preview(), Map.of(UPSTREAM, 3L), settings.toString()));

        assertThat(planner.takesPreview(printed)).isFalse();
        assertThat(planner.onDefined(printed, NOW)).isPresent();
        assertThat(asked).containsExactly(TABLE);
    }

    @Test
    void aPreviewWhoseUpstreamHadNoPlanIsTakenOnlyWhileItStillHasNone() {
        TableDefinition defined =
                definition(1)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        preview(), Map.of(UPSTREAM, 0L), settings.toContract()));

        assertThat(planner.takesPreview(defined)).isTrue();
        book.record(upstreamPlan(1));
        assertThat(planner.takesPreview(defined)).isFalse();
    }

    @Test
    void aPreviewOfAnotherVersionOrNoneIsNotTaken() {
        TableDefinition ofVersionOne =
                definition(2)
                        .withPreviewedPlan(
                                new TableDefinition.PreviewedPlan(
                                        preview(), Map.of(), settings.toContract()));

        assertThat(planner.takesPreview(ofVersionOne)).isFalse();
        assertThat(planner.takesPreview(definition(2))).isFalse();
    }

    private RefreshPlan preview() {
        return preview(1);
    }

    private RefreshPlan preview(long version) {
        return RefreshModeRules.plan(
                definition(version), settings, QueryAnalysis.streamable("[I,UA]"), ACCEPTED);
    }

    private static RefreshPlan upstreamPlan(long version) {
        return RefreshPlanBuilder.builder()
                .table(UPSTREAM)
                .definitionVersion(version)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness(1, "MINUTE"))
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I,UA,D]")
                .upsertKey(null)
                .upstreamTables(List.of())
                .reasons(List.of())
                .warnings(List.of())
                .plannedAt(ACCEPTED)
                .build();
    }

    private static TableDefinition definition(long version) {
        return TableDefinitionBuilder.builder()
                .table(TABLE)
                .version(version)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("CREATE MATERIALIZED TABLE ...")
                .columns(List.of(new TableDefinition.Column("ds", "STRING", true)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(new TableDefinition.Freshness(5, "MINUTE"))
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(
                        new TableDefinition.Query(
                                "SELECT ds, count(*) AS n FROM orders_clean GROUP BY ds",
                                "SELECT `ds`, COUNT(*) AS `n` FROM"
                                        + " `default_catalog`.`shop`.`orders_clean` GROUP BY `ds`"))
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(ACCEPTED)
                .updatedAt(ACCEPTED)
                .requestId(null)
                .build();
    }
}
