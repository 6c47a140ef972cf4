package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a CONTINUOUS job folds its changes in mini-batches, and what its plan says about it. */
class MiniBatchesTest {

    private static final QueryAnalysis GROUPED =
            QueryAnalysis.streamable("[I,UA,D]").withUniqueKeys(List.of(List.of("ds")));

    @Test
    void aStreamingJobHoldsItsMiniBatchesForACheckpointInterval() {
        RefreshPlan plan = plan(RefreshMode.AUTO, 10, GROUPED);

        assertThat(plan.miniBatch())
                .isEqualTo(Duration.ofSeconds(5))
                .isEqualTo(plan.checkpointInterval());
        assertThat(plan.reasons())
                .contains(
                        "Mini-batches of up to 5 s (the checkpoint interval; a checkpoint flushes"
                            + " them, so readers wait no longer): each operator folds a batch's"
                            + " changes of a key into one, so an aggregate's row changes once per"
                            + " batch, not once per input row.");
        assertThat(PlanShapingOptions.miniBatch(plan.miniBatch()))
                .containsEntry("table.exec.mini-batch.enabled", "true")
                .containsEntry("table.exec.mini-batch.allow-latency", "5000 ms")
                .containsEntry("table.exec.mini-batch.size", "10000");
    }

    @Test
    void aRegularJoinIsLeftUnbatched() {
        RefreshPlan plan = plan(RefreshMode.AUTO, 10, GROUPED.withRegularJoin(true));

        assertThat(plan.miniBatch()).isEqualTo(Duration.ofSeconds(5));
        assertThat(plan.reasons())
                .anyMatch(
                        reason ->
                                reason.startsWith("Mini-batches of up to 5 s")
                                        && reason.endsWith(
                                                "; the join is left unbatched (Flink 2.2's"
                                                    + " mini-batch join can fold an update and a"
                                                    + " delete of a row into nothing,"
                                                    + " FLINK-40681)."));
    }

    @Test
    void aGlobalAggregateHoldingItsEmptyInputRowIsBatched() {
        var oneRow =
                QueryAnalysis.streamable("[I,UA,D]")
                        .withUniqueKeys(List.of(List.of()))
                        .withEmptyInputRow(Arrays.asList("0"));

        RefreshPlan plan = plan(RefreshMode.AUTO, 10, oneRow);

        assertThat(plan.upsertKey().holdsEmptyInputRow()).isTrue();
        assertThat(plan.miniBatch()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aFullTableHasNoMiniBatches() {
        assertThat(plan(RefreshMode.FULL, 3600, GROUPED).miniBatch()).isNull();
    }

    private static RefreshPlan plan(RefreshMode mode, int seconds, QueryAnalysis query) {
        TableDefinition table =
                TableDefinitionBuilder.builder()
                        .table("default_catalog.shop.t")
                        .version(1)
                        .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                        .statement("CREATE MATERIALIZED TABLE ...")
                        .columns(List.of(new TableDefinition.Column("ds", "STRING", false)))
                        .primaryKey(List.of())
                        .partitionKeys(List.of())
                        .distribution(null)
                        .options(Map.of())
                        .comment(null)
                        .freshness(new TableDefinition.Freshness(seconds, "SECOND"))
                        .refreshMode(mode)
                        .query(new TableDefinition.Query("SELECT ds FROM s", "SELECT ds FROM s"))
                        .sources(List.of())
                        .status(TableDefinition.Status.ACTIVE)
                        .resumeOptions(Map.of())
                        .createdAt(Instant.EPOCH)
                        .updatedAt(Instant.EPOCH)
                        .requestId(null)
                        .build();
        return RefreshModeRules.plan(table, PlannerSettings.defaults(), query, Instant.EPOCH);
    }
}
