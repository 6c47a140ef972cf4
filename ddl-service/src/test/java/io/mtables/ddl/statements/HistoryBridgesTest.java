package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.StateCompatibility;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which changes over sources that lost their oldest changes seed 004's bridge can keep. */
class HistoryBridgesTest {

    private static final Column START = new Column("window_start", "TIMESTAMP(3)", false);
    private static final Column END = new Column("window_end", "TIMESTAMP(3)", false);
    private static final Column N = new Column("n", "BIGINT", false);
    private static final Column TOTAL = new Column("total", "BIGINT", true);

    @Test
    void aWindowTableWithoutAKeyIsBridgedAtItsWindowEnd() {
        var result =
                HistoryBridges.of(
                        table("old", START, END, N),
                        table("new", START, END, N, TOTAL),
                        plan(null),
                        ends(Map.of("old", Set.of("window_end"), "new", Set.of("window_end"))),
                        "the topic lost offsets 0-299");

        assertThat(result.bridge()).isPresent();
        assertThat(result.bridge().get().column()).isEqualTo("window_end");
        assertThat(result.bridge().get().missingHistory())
                .isEqualTo("the topic lost offsets 0-299");
    }

    @Test
    void aKeyedTableIsBridgedOnlyAtAWindowEndInItsKey() {
        var keyedByEnd =
                plan(
                        new RefreshPlan.UpsertKey(
                                List.of("window_start", "window_end"),
                                RefreshPlan.UpsertKey.Origin.DERIVED));
        var keyedOtherwise =
                plan(
                        new RefreshPlan.UpsertKey(
                                List.of("n"), RefreshPlan.UpsertKey.Origin.DECLARED));
        var preview = ends(Map.of("old", Set.of("window_end"), "new", Set.of("window_end")));

        assertThat(
                        HistoryBridges.of(
                                        table("old", START, END, N),
                                        table("new", START, END, N),
                                        keyedByEnd,
                                        preview,
                                        "x")
                                .bridge())
                .isPresent();
        var refused =
                HistoryBridges.of(
                        table("old", START, END, N),
                        table("new", START, END, N),
                        keyedOtherwise,
                        preview,
                        "x");
        assertThat(refused.bridge()).isEmpty();
        assertThat(refused.whyNot())
                .contains("no column of the key (n) is a window aggregate's end");
    }

    @Test
    void aWindowEndInOnlyOneQueryOrOfAnotherTypeIsNoBridge() {
        var onlyNew = ends(Map.of("old", Set.of(), "new", Set.of("window_end")));
        assertThat(
                        HistoryBridges.of(
                                        table("old", START, END, N),
                                        table("new", START, END, N),
                                        plan(null),
                                        onlyNew,
                                        "x")
                                .bridge())
                .isEmpty();

        var both = ends(Map.of("old", Set.of("window_end"), "new", Set.of("window_end")));
        Column endAsLtz = new Column("window_end", "TIMESTAMP_LTZ(3)", false);
        assertThat(
                        HistoryBridges.of(
                                        table("old", START, END, N),
                                        table("new", START, endAsLtz, N),
                                        plan(null),
                                        both,
                                        "x")
                                .bridge())
                .isEmpty();
    }

    @Test
    void aKeyComputedAroundTheQueryIsNoBridge() {
        var union =
                plan(
                        new RefreshPlan.UpsertKey(
                                List.of("window_end"),
                                RefreshPlan.UpsertKey.Origin.SYNTHETIC,
                                List.of(List.of("window_end"))));
        var both = ends(Map.of("old", Set.of("window_end"), "new", Set.of("window_end")));

        var result =
                HistoryBridges.of(
                        table("old", START, END, N), table("new", START, END, N), union, both, "x");

        assertThat(result.bridge()).isEmpty();
        assertThat(result.whyNot()).contains("UNION ALL branches");
    }

    /** A preview whose window ends are given by each definition's query text. */
    private static PlanPreview ends(Map<String, Set<String>> byQuery) {
        return new PlanPreview() {
            @Override
            public Preview preview(TableDefinition definition) {
                throw new UnsupportedOperationException();
            }

            @Override
            public StateCompatibility.Result stateVerdict(
                    TableDefinition running, TableDefinition changed) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Set<String> windowEnds(TableDefinition definition) {
                return byQuery.get(definition.query().expanded());
            }
        };
    }

    private static RefreshPlan plan(RefreshPlan.UpsertKey key) {
        return RefreshPlanBuilder.builder()
                .table("c.d.t")
                .definitionVersion(2)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness(2, "SECOND"))
                .freshnessDeclared(true)
                .checkpointInterval(Duration.ofSeconds(1))
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I]")
                .upsertKey(key)
                .upstreamTables(List.of())
                .reasons(List.of("CONTINUOUS (test)"))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .build();
    }

    private static TableDefinition table(String query, Column... columns) {
        return TableDefinitionBuilder.builder()
                .table("c.d.t")
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("x")
                .columns(List.of(columns))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(query, query))
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
