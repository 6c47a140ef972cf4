package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.domain.StatementException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class InformationSchemaTest {

    private static final List<Object[]> ROWS =
            List.of(
                    new Object[] {
                        "default_catalog.shop.a",
                        "AUTO",
                        "INTERVAL '5' MINUTE",
                        "ACTIVE",
                        2L,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null
                    },
                    new Object[] {
                        "default_catalog.shop.b",
                        "FULL",
                        "INTERVAL '1' HOUR",
                        "SUSPENDED",
                        1L,
                        1_764_000_000_000L,
                        null,
                        null,
                        null,
                        90_000L,
                        1_763_999_910_000L
                    });

    @Test
    void filtersProjectsAndOrders() {
        var result =
                InformationSchema.query(
                        "SELECT table_name, status FROM information_schema.materialized_tables"
                                + " WHERE status <> 'ACTIVE' ORDER BY table_name",
                        ROWS);

        assertThat(result.columns())
                .extracting(c -> c.name())
                .containsExactly("table_name", "status");
        assertThat(result.rows()).containsExactly(List.of("default_catalog.shop.b", "SUSPENDED"));
    }

    @Test
    void aggregatesAndReadsTimestamps() {
        assertThat(
                        InformationSchema.query(
                                        "SELECT count(*) AS n FROM"
                                                + " information_schema.materialized_tables",
                                        ROWS)
                                .rows())
                .containsExactly(List.of(2L));
        assertThat(
                        InformationSchema.query(
                                        "SELECT last_refresh FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " definition_version = 1",
                                        ROWS)
                                .rows())
                .containsExactly(List.of("2025-11-24T16:00:00Z"));
    }

    @Test
    void findsTablesBehindTheirFreshness() {
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name, measured_lag / 1000 AS lag_seconds,"
                                                + " data_timestamp FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " measured_lag > 60000",
                                        ROWS)
                                .rows())
                .containsExactly(List.of("default_catalog.shop.b", 90L, "2025-11-24T15:58:30Z"));
    }

    @Test
    void dependenciesJoinTheTables() {
        List<Object[]> dependencies =
                List.of(
                        new Object[] {
                            "default_catalog.shop.b",
                            "default_catalog.shop.a",
                            "MATERIALIZED_TABLE",
                            2L
                        },
                        new Object[] {
                            "default_catalog.shop.a",
                            "default_catalog.shop.orders",
                            "SOURCE_TABLE",
                            1L
                        });
        assertThat(
                        InformationSchema.query(
                                        "SELECT d.upstream_table, t.status FROM"
                                            + " information_schema.table_dependencies d JOIN"
                                            + " information_schema.materialized_tables t ON"
                                            + " t.table_name = d.table_name WHERE d.upstream_kind ="
                                            + " 'MATERIALIZED_TABLE'",
                                        ROWS,
                                        dependencies,
                                        table -> List.of())
                                .rows())
                .containsExactly(List.of("default_catalog.shop.a", "SUSPENDED"));
    }

    @Test
    void theHistoryIsReadForTheOneTableAQueryFixes() {
        List<Optional<String>> asked = new ArrayList<>();
        Function<Optional<String>, List<Object[]>> history =
                table -> {
                    asked.add(table);
                    return Stream.<Object[]>of(
                                    new Object[] {
                                        "default_catalog.shop.a",
                                        1L,
                                        "SCHEDULED",
                                        "SUCCEEDED",
                                        "written",
                                        null,
                                        null,
                                        null,
                                        1_764_000_000_000L,
                                        3L,
                                        7L,
                                        "PT1H",
                                        true
                                    },
                                    new Object[] {
                                        "default_catalog.shop.b",
                                        1L,
                                        "MANUAL",
                                        "FAILED",
                                        "boom",
                                        null,
                                        null,
                                        null,
                                        1_764_000_001_000L,
                                        null,
                                        null,
                                        null,
                                        null
                                    })
                            .filter(row -> table.isEmpty() || table.get().equals(row[0]))
                            .toList();
                };
        assertThat(
                        InformationSchema.query(
                                        "SELECT state, snapshot_id, freshness_met FROM"
                                            + " information_schema.refresh_history WHERE table_name"
                                            + " = 'default_catalog.shop.a' AND state <> 'x'",
                                        ROWS,
                                        List.of(),
                                        history)
                                .rows())
                .as("the other filters still apply to what is read")
                .containsExactly(List.of("SUCCEEDED", 7L, true));
        assertThat(
                        InformationSchema.query(
                                        "SELECT count(*) AS n FROM"
                                            + " information_schema.refresh_history WHERE state <>"
                                            + " 'x'",
                                        ROWS,
                                        List.of(),
                                        history)
                                .rows())
                .containsExactly(List.of(2L));
        assertThat(asked).containsExactly(Optional.of("default_catalog.shop.a"), Optional.empty());
    }

    @Test
    void queriesThatDifferOnlyInTheirValuesArePlannedOnceAndEachReadsItsOwnTable() {
        List<Optional<String>> asked = new ArrayList<>();
        Function<Optional<String>, List<Object[]>> history =
                table -> {
                    asked.add(table);
                    return List.<Object[]>of(
                            new Object[] {
                                table.orElse("?"),
                                1L,
                                "SCHEDULED",
                                "SUCCEEDED",
                                "written",
                                null,
                                null,
                                null,
                                1_764_000_000_000L,
                                3L,
                                7L,
                                "PT1H",
                                true
                            });
                };
        for (String table : List.of("default_catalog.shop.a", "default_catalog.shop.b")) {
            assertThat(
                            InformationSchema.query(
                                            "SELECT table_name, state FROM"
                                                    + " information_schema.refresh_history\n"
                                                    + "WHERE table_name = '"
                                                    + table
                                                    + "' ORDER BY finished_at DESC LIMIT 100",
                                            ROWS,
                                            List.of(),
                                            history)
                                    .rows())
                    .containsExactly(List.of(table, "SUCCEEDED"));
        }
        assertThat(asked)
                .as("the parameter narrows the read as the literal did")
                .containsExactly(
                        Optional.of("default_catalog.shop.a"),
                        Optional.of("default_catalog.shop.b"));
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " measured_lag > 100000",
                                        ROWS)
                                .rows())
                .isEmpty();
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " measured_lag > 1000",
                                        ROWS)
                                .rows())
                .containsExactly(List.of("default_catalog.shop.b"));
        assertThat(InformationSchema.preparedShapes())
                .contains(
                        "SELECT table_name, state FROM information_schema.refresh_history\n"
                                + "WHERE table_name = ? ORDER BY finished_at DESC LIMIT 100",
                        "SELECT table_name FROM information_schema.materialized_tables WHERE"
                                + " measured_lag > ?");
    }

    @Test
    void aValueThatDoesNotConvertToItsColumnsTypeStillAnswers() {
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                            + " information_schema.materialized_tables WHERE"
                                            + " last_refresh > '2025-11-24 00:00:00' AND status ="
                                            + " 'SUSPENDED'",
                                        ROWS)
                                .rows())
                .containsExactly(List.of("default_catalog.shop.b"));
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " table_name = 'it''s'",
                                        ROWS)
                                .rows())
                .isEmpty();
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " definition_version < 1.5",
                                        ROWS)
                                .rows())
                .as(
                        "a fraction against a whole-number column is compared as a fraction, as the"
                                + " literal is")
                .containsExactly(List.of("default_catalog.shop.b"));
        assertThat(
                        InformationSchema.query(
                                        "SELECT table_name FROM"
                                                + " information_schema.materialized_tables WHERE"
                                                + " definition_version < 2",
                                        ROWS)
                                .rows())
                .containsExactly(List.of("default_catalog.shop.b"));
    }

    @Test
    void unknownColumnIsRefusedWithTheColumnsThatExist() {
        assertThatThrownBy(
                        () ->
                                InformationSchema.query(
                                        "SELECT nope FROM information_schema.materialized_tables",
                                        ROWS))
                .isInstanceOf(StatementException.class)
                .hasMessageContaining("nope")
                .satisfies(
                        e ->
                                assertThat(((StatementException) e).toError().allowed())
                                        .contains("table_name"));
    }
}
