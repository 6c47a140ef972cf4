package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
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
        return new TableDefinition(
                "c.d.t",
                1,
                TableDefinition.Kind.MATERIALIZED_TABLE,
                "x",
                columns,
                List.of(),
                partitions,
                null,
                Map.of(),
                null,
                null,
                TableDefinition.RefreshMode.AUTO,
                new TableDefinition.Query("q", "q"),
                List.of(),
                TableDefinition.Status.ACTIVE,
                Map.of(),
                Instant.EPOCH,
                Instant.EPOCH,
                null);
    }
}
