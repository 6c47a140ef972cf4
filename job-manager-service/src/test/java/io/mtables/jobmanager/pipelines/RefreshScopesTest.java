package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.schemas.tick.RefreshTick;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FULL refresh over an unchanged input runs no job, unless the input's rows were replaced since
 * the last refresh read it: a switched-over table numbers its snapshots anew, so the same id there
 * is not the same data.
 */
class RefreshScopesTest {

    private static final String TABLE = "default_catalog.shop.daily";
    private static final String INPUT = "default_catalog.shop.orders_ods";
    private static final Instant READ_AT = Instant.parse("2026-12-01T00:00:00Z");

    @TempDir Path warehouse;

    @Test
    void anInputAtTheSnapshotTheLastRefreshReadRunsNoJob() {
        var decision = scopes(replacements()).of(pipeline(), refresh());

        assertThat(decision).isInstanceOf(RefreshScopes.NoData.class);
    }

    @Test
    void anInputReplacedSinceTheLastRefreshIsReadAgainWhateverItsSnapshotId() {
        ReplacedInputs replaced = replacements();
        replaced.recall(INPUT, READ_AT.plusSeconds(60));

        var decision = scopes(replaced).of(pipeline(), refresh());

        assertThat(decision).isInstanceOf(RefreshScopes.Run.class);
        assertThat(((RefreshScopes.Run) decision).overwrite()).contains("INSERT OVERWRITE");
    }

    @Test
    void aReplacementBeforeTheLastRefreshChangesNothing() {
        ReplacedInputs replaced = replacements();
        replaced.recall(INPUT, READ_AT.minusSeconds(60));

        var decision = scopes(replaced).of(pipeline(), refresh());

        assertThat(decision).isInstanceOf(RefreshScopes.NoData.class);
    }

    private static ReplacedInputs replacements() {
        return new ReplacedInputs(null, null, null, null, null);
    }

    private RefreshScopes scopes(ReplacedInputs replaced) {
        var location = Warehouse.at(warehouse.toUri().toString());
        PaimonSnapshots snapshots =
                new PaimonSnapshots(location) {
                    @Override
                    public Optional<CommittedSnapshot> latest(String table) {
                        return Optional.of(
                                new CommittedSnapshot(
                                        7, READ_AT, 3, 3, "OVERWRITE", Long.MAX_VALUE));
                    }

                    @Override
                    public Optional<InputSnapshot> input(String table) {
                        return Optional.of(new InputSnapshot(5, 5));
                    }
                };
        return new RefreshScopes(snapshots, new PaimonPartitions(location), replaced);
    }

    /** A FULL table over one materialized input, last refreshed over its snapshot 5. */
    private static Pipeline pipeline() {
        Pipeline pipeline = new Pipeline(TABLE);
        pipeline.definition =
                TableDefinitionBuilder.builder()
                        .table(TABLE)
                        .version(1)
                        .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                        .statement("CREATE MATERIALIZED TABLE ...")
                        .columns(List.of())
                        .primaryKey(List.of())
                        .partitionKeys(List.of())
                        .distribution(null)
                        .options(Map.of())
                        .comment(null)
                        .freshness(null)
                        .refreshMode(TableDefinition.RefreshMode.FULL)
                        .query(
                                new TableDefinition.Query(
                                        "SELECT * FROM orders_ods",
                                        "SELECT * FROM shop.orders_ods"))
                        .sources(
                                List.of(
                                        new TableDefinition.SourceTable(
                                                INPUT,
                                                TableDefinition.Kind.MATERIALIZED_TABLE,
                                                1,
                                                "CREATE MATERIALIZED TABLE ...",
                                                List.of(),
                                                List.of())))
                        .status(TableDefinition.Status.ACTIVE)
                        .resumeOptions(Map.of())
                        .createdAt(Instant.now())
                        .updatedAt(Instant.now())
                        .requestId(null)
                        .build();
        pipeline.plan =
                RefreshPlanBuilder.builder()
                        .table(TABLE)
                        .definitionVersion(1)
                        .status(RefreshPlan.Status.ACTIVE)
                        .mode(RefreshPlan.Mode.FULL)
                        .freshness(new RefreshPlan.Freshness(1, "HOUR"))
                        .freshnessDeclared(true)
                        .checkpointInterval(null)
                        .cron("0 0 0/1 * * ? *")
                        .partitionFormatters(Map.of())
                        .changelogMode("[I,UA]")
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .reasons(List.of("hand-made"))
                        .warnings(List.of())
                        .plannedAt(Instant.now())
                        .incremental(
                                new RefreshPlan.Incremental(
                                        RefreshPlan.Incremental.Level.UNCHANGED_INPUTS,
                                        "hand-made"))
                        .build();
        pipeline.lastInputs.put(Map.of(), new Pipeline.InputsRead(1, Map.of(INPUT, 5L), READ_AT));
        return pipeline;
    }

    private static Pipeline.Refresh refresh() {
        return new Pipeline.Refresh(
                "r2", Map.of(), READ_AT.plusSeconds(3600), RefreshTick.Reason.SCHEDULED);
    }
}
