package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryShapeTest {

    @Test
    void literalsComparedWithColumnsBecomeParametersInTheirOrder() {
        assertThat(
                        QueryShape.of(
                                "SELECT x FROM t WHERE 60000 < measured_lag AND table_name ="
                                        + " 'it''s' ORDER BY x LIMIT 100"))
                .contains(
                        new QueryShape(
                                "SELECT x FROM t WHERE ? < measured_lag AND table_name = ? ORDER BY"
                                        + " x LIMIT 100",
                                List.of(60000L, "it's")));
    }

    @Test
    void tabsLineBreaksAndWideCharactersKeepTheirPlaces() {
        assertThat(QueryShape.of("SELECT\tx FROM\tt WHERE\ttable_name = 'a\tb' AND\tn > 5"))
                .contains(
                        new QueryShape(
                                "SELECT\tx FROM\tt WHERE\ttable_name = ? AND\tn > ?",
                                List.of("a\tb", 5L)));
        assertThat(
                        QueryShape.of(
                                "SELECT x FROM t\r\n"
                                        + "WHERE table_name = 'é漢' AND n >= 12.5 AND s = N'x'"))
                .contains(
                        new QueryShape(
                                "SELECT x FROM t\r\nWHERE table_name = ? AND n >= ? AND s = ?",
                                List.of("é漢", new BigDecimal("12.5"), "x")));
    }

    @Test
    void otherLiteralsStay() {
        assertThat(
                        QueryShape.of(
                                "SELECT 'a' AS k, count(*) FROM t WHERE n + 1 > 2 AND f(x) = 'y'"
                                        + " AND flag = TRUE AND d > DATE '2026-12-01' GROUP BY 1"))
                .contains(
                        new QueryShape(
                                "SELECT 'a' AS k, count(*) FROM t WHERE n + 1 > 2 AND f(x) = 'y'"
                                        + " AND flag = TRUE AND d > DATE '2026-12-01' GROUP BY 1",
                                List.of()));
    }

    @Test
    void whatDoesNotParseHasNoShape() {
        assertThat(QueryShape.of("SELECT FROM WHERE")).isEmpty();
    }
}
