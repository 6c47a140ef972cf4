package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {

    private static final Column DS = new Column("ds", "STRING", true);
    private static final Column N = new Column("n", "BIGINT", false);

    @Test
    void appendingNullableColumnsIsAllowed() {
        assertThatCode(
                        () ->
                                SchemaEvolution.check(
                                        table(List.of(DS, N), List.of()),
                                        table(
                                                List.of(DS, N, new Column("m", "INT", true)),
                                                List.of())))
                .doesNotThrowAnyException();
    }

    @Test
    void appendingANotNullColumnIsNamed() {
        assertThatThrownBy(
                        () ->
                                SchemaEvolution.check(
                                        table(List.of(DS), List.of()),
                                        table(List.of(DS, N), List.of())))
                .hasMessageContaining("Added column 'n' is NOT NULL");
    }

    @Test
    void changingATypeNamesTheColumnAndBothTypes() {
        assertThatThrownBy(
                        () ->
                                SchemaEvolution.check(
                                        table(List.of(DS, N), List.of()),
                                        table(
                                                List.of(DS, new Column("n", "INT", false)),
                                                List.of())))
                .hasMessageContaining(
                        "Column 2 would change from 'n' BIGINT NOT NULL to 'n' INT NOT NULL");
    }

    @Test
    void removingAColumnIsNamed() {
        assertThatThrownBy(
                        () ->
                                SchemaEvolution.check(
                                        table(List.of(DS, N), List.of()),
                                        table(List.of(DS), List.of())))
                .hasMessageContaining("Column 'n' (position 2) would be removed");
    }

    @Test
    void changingThePartitionKeysIsRefused() {
        assertThatThrownBy(
                        () ->
                                SchemaEvolution.check(
                                        table(List.of(DS, N), List.of("ds")),
                                        table(List.of(DS, N), List.of())))
                .hasMessageContaining("PARTITIONED BY would change from [ds] to []");
    }

    private static TableDefinition table(List<Column> columns, List<String> partitions) {
        return TableDefinitionBuilder.builder()
                .table("c.d.t")
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("x")
                .columns(columns)
                .primaryKey(List.of())
                .partitionKeys(partitions)
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query("q", "q"))
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
