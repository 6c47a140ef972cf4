package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class TableQueriesTest {

    private static final List<InMemorySql.Column> COLUMNS =
            List.of(
                    new InMemorySql.Column("id", SqlTypeName.BIGINT, false),
                    new InMemorySql.Column("v", SqlTypeName.VARCHAR, true));

    @Test
    void lookupsOfOneShapeArePreparedOnceAndAnswerTheirOwnRows() {
        TableQueries queries = new TableQueries(2);
        List<InMemorySql.Table> first =
                table(List.<Object[]>of(new Object[] {1L, "one"}, new Object[] {2L, "two"}));
        List<InMemorySql.Table> second = table(List.<Object[]>of(new Object[] {2L, "deux"}));

        assertThat(
                        queries.query(
                                        "SELECT v FROM shop.t WHERE id = 1",
                                        first,
                                        "SELECT",
                                        "",
                                        ROWS_100)
                                .rows())
                .containsExactly(List.of("one"));
        assertThat(
                        queries.query(
                                        "SELECT v FROM shop.t WHERE id = 2",
                                        first,
                                        "SELECT",
                                        "",
                                        ROWS_100)
                                .rows())
                .containsExactly(List.of("two"));
        assertThat(
                        queries.query(
                                        "SELECT v FROM shop.t WHERE id = 2",
                                        second,
                                        "SELECT",
                                        "",
                                        ROWS_100)
                                .rows())
                .as("the rows of this read, not the last one's")
                .containsExactly(List.of("deux"));

        assertThat(queries.preparedShapes())
                .containsOnlyKeys(List.of(List.of("shop", "t")))
                .allSatisfy((tables, shapes) -> assertThat(shapes).hasSize(1));
    }

    private static final ReadLimits ROWS_100 = new ReadLimits(100, Long.MAX_VALUE);

    @Test
    void anAnswerPastItsBytesIsRefusedAndOneWithinThemAnswered() {
        TableQueries queries = new TableQueries(2);
        // "one" counts 4 + 3 bytes, "three" 4 + 5: both rows 16 bytes.
        var rows = table(List.<Object[]>of(new Object[] {1L, "one"}, new Object[] {3L, "three"}));
        String query = "SELECT v FROM shop.t";

        assertThat(queries.query(query, rows, "SELECT", "", new ReadLimits(100, 16)).rows())
                .hasSize(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> queries.query(query, rows, "SELECT", "", new ReadLimits(100, 15)))
                .isInstanceOfSatisfying(
                        io.mtables.ddl.domain.StatementException.class,
                        refused -> assertThat(refused.reason()).isEqualTo("ResultTooLarge"))
                .hasMessageContaining(
                        "more than 15 bytes of values (mt.ddl.read-max-bytes) by its row 2");
    }

    @Test
    void anUnknownColumnIsRefusedAtItsPlace() {
        TableQueries queries = new TableQueries(2);
        var rows = table(List.<Object[]>of(new Object[] {1L, "one"}));

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                queries.query(
                                        "SELECT v,\n  nope FROM shop.t",
                                        rows,
                                        "SELECT",
                                        "",
                                        ROWS_100))
                .isInstanceOfSatisfying(
                        io.mtables.ddl.domain.StatementException.class,
                        refused -> {
                            assertThat(refused.toError().line()).isEqualTo(2);
                            assertThat(refused.toError().column()).isEqualTo(3);
                        })
                .hasMessageContaining("Column 'nope' not found");
    }

    @Test
    void anAnswerPastItsRowCapIsRefused() {
        TableQueries queries = new TableQueries(2);
        var rows = table(List.<Object[]>of(new Object[] {1L, "one"}, new Object[] {2L, "two"}));

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                queries.query(
                                        "SELECT a.v FROM shop.t a, shop.t b",
                                        rows,
                                        "SELECT",
                                        "",
                                        new ReadLimits(3, Long.MAX_VALUE)))
                .isInstanceOfSatisfying(
                        io.mtables.ddl.domain.StatementException.class,
                        refused -> assertThat(refused.reason()).isEqualTo("ResultTooLarge"));
    }

    @Test
    void theLeastRecentlyUsedSetOfTablesGoesFirst() {
        TableQueries queries = new TableQueries(1);
        queries.query(
                "SELECT v FROM shop.t WHERE id = 1", table(List.of()), "SELECT", "", ROWS_100);
        queries.query(
                "SELECT v FROM shop.u WHERE id = 1",
                List.of(new InMemorySql.Table(List.of("shop", "u"), COLUMNS, List.of())),
                "SELECT",
                "",
                ROWS_100);

        assertThat(queries.preparedShapes()).containsOnlyKeys(List.of(List.of("shop", "u")));
    }

    private static List<InMemorySql.Table> table(List<Object[]> rows) {
        return List.of(new InMemorySql.Table(List.of("shop", "t"), COLUMNS, rows));
    }
}
