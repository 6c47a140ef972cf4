package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.infra.PushedDown;
import io.mtables.ddl.infra.PushedDown.Comparison;
import io.mtables.ddl.infra.PushedDown.Condition;
import io.mtables.planning.FlinkSyntax;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

/**
 * What of a SELECT is applied while its table is read, parsed by Flink's parser as statements are.
 */
class ReadPushdownsTest {

    private static final List<String> COLUMNS = List.of("id", "ds", "n", "price");

    @Test
    void comparisonsOfAColumnWithALiteralArePushedDownAndTheLimitWithThem() {
        PushedDown pushed =
                of(
                        "SELECT id, n AS total FROM shop.daily WHERE id = 42 AND 10 < n AND ds ="
                                + " 'x' AND price IS NOT NULL AND ds >= DATE '2026-11-28' LIMIT 5");
        assertThat(pushed.conditions())
                .containsExactly(
                        new Condition("id", Comparison.EQUAL, new BigDecimal("42")),
                        new Condition("n", Comparison.GREATER, new BigDecimal("10")),
                        new Condition("ds", Comparison.EQUAL, "x"),
                        new Condition("price", Comparison.IS_NOT_NULL, null),
                        new Condition(
                                "ds",
                                Comparison.GREATER_OR_EQUAL,
                                (int) LocalDate.parse("2026-11-28").toEpochDay()));
        assertThat(pushed.wholeWhere()).isTrue();
        assertThat(pushed.limit()).isEqualTo(5);
        assertThat(of("SELECT * FROM daily d WHERE d.id = -3 LIMIT 2 OFFSET 4").limit())
                .isEqualTo(6);
        assertThat(of("SELECT * FROM daily d WHERE d.id = -3").conditions())
                .containsExactly(new Condition("id", Comparison.EQUAL, new BigDecimal("-3")));
    }

    @Test
    void whatTheReadCannotApplyIsLeftToTheQueryAndThenSoIsTheLimit() {
        PushedDown partly = of("SELECT * FROM daily WHERE id = 1 AND (n = 2 OR n = 3) LIMIT 5");
        assertThat(partly.conditions())
                .containsExactly(new Condition("id", Comparison.EQUAL, BigDecimal.ONE));
        assertThat(partly.wholeWhere()).isFalse();
        assertThat(partly.limit()).isEqualTo(-1);
        assertThat(of("SELECT * FROM daily WHERE other = 1").conditions()).isEmpty();
        assertThat(of("SELECT * FROM daily WHERE x.id = 1").conditions()).isEmpty();
        assertThat(of("SELECT * FROM daily WHERE id = n").conditions()).isEmpty();
        assertThat(of("SELECT * FROM daily WHERE id = NULL").conditions()).isEmpty();
        // An approximate number is a double to the query; a malformed date its own error.
        assertThat(of("SELECT * FROM daily WHERE id = 9007199254740993E0").conditions()).isEmpty();
        assertThat(of("SELECT * FROM daily WHERE ds = DATE '2026-13-45'").conditions()).isEmpty();
        assertThat(of("SELECT * FROM daily LIMIT 18446744073709551617").limit()).isEqualTo(-1);
    }

    @Test
    void noLimitWhereTheRowsReadAreNotTheAnswers() {
        for (String query :
                List.of(
                        "SELECT * FROM daily ORDER BY n LIMIT 3",
                        "SELECT DISTINCT ds FROM daily LIMIT 3",
                        "SELECT ds, COUNT(*) FROM daily GROUP BY ds LIMIT 3",
                        "SELECT COUNT(*) FROM daily LIMIT 3",
                        "SELECT UPPER(ds) FROM daily LIMIT 3")) {
            assertThat(of(query).limit()).as(query).isEqualTo(-1);
        }
    }

    @Test
    void nothingWhereTheTableMayBeReadTwiceOrJoined() {
        for (String query :
                List.of(
                        "SELECT * FROM daily WHERE id = 1 AND n IN (SELECT n FROM daily WHERE id"
                                + " = 2)",
                        "SELECT (SELECT MAX(n) FROM daily) AS m, id FROM daily WHERE id = 1",
                        "SELECT * FROM daily a JOIN daily b ON a.id = b.id WHERE a.id = 1",
                        "SELECT * FROM (SELECT * FROM daily) WHERE id = 1",
                        "SELECT * FROM daily WHERE id = 1 UNION ALL SELECT * FROM daily",
                        // A subquery anywhere may read the same table, which is read once.
                        "SELECT n FROM daily WHERE n = 1 GROUP BY n HAVING COUNT(*) >= (SELECT"
                                + " COUNT(*) FROM daily)",
                        "SELECT id FROM daily WHERE id = 1 ORDER BY (SELECT MAX(n) FROM daily)"
                                + " LIMIT 1",
                        // Columns renamed in FROM: id here is the table's n.
                        "SELECT * FROM daily AS d(n, id) WHERE id = 1")) {
            assertThat(of(query)).as(query).isEqualTo(PushedDown.NOTHING);
        }
    }

    private static PushedDown of(String query) {
        try {
            return ReadPushdowns.of(
                    SqlParser.create(query, FlinkSyntax.PARSER).parseStmt(), COLUMNS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
