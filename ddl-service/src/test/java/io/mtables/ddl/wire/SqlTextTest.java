package io.mtables.ddl.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SqlTextTest {

    @Test
    void splitsOnSemicolonsOutsideQuotesAndComments() {
        String query =
                "SELECT ';' AS a; -- a comment; still\n"
                        + "SELECT \"x;y\" FROM t /* ; */ ;;\n"
                        + "  ";

        assertThat(SqlText.split(query))
                .containsExactly(
                        new SqlText.Piece("SELECT ';' AS a", 0),
                        new SqlText.Piece(
                                " -- a comment; still\nSELECT \"x;y\" FROM t /* ; */ ", 16));
    }

    @Test
    void aBlankQueryHasNoStatements() {
        assertThat(SqlText.split("  ;\n; ")).isEmpty();
    }

    @Test
    void parametersAreFoundAndReplacedOnlyOutsideQuotes() {
        String statement = "SELECT '$1', a$1 FROM t WHERE a = $2 AND b = $1 -- $3";

        assertThat(SqlText.parameterCount(statement)).isEqualTo(2);
        assertThat(SqlText.replaceParameters(statement, n -> n == 1 ? "'x'" : "42"))
                .isEqualTo("SELECT '$1', a$1 FROM t WHERE a = 42 AND b = 'x' -- $3");
    }

    @Test
    void quotesAndCommentsAreSkippedAsFlinksParserReadsThem() {
        String statement = "SELECT E'it\\'s $1', a_$1, b$$1 // $2\nFROM t WHERE x = $3";

        assertThat(SqlText.replaceParameters(statement, n -> "<" + n + ">"))
                .isEqualTo("SELECT E'it\\'s $1', a_$1, b$$1 // $2\nFROM t WHERE x = <3>");
    }

    @Test
    void parametersArePostgresqlsAtMost() {
        assertThat(SqlText.parameterCount("SELECT $65535")).isEqualTo(65_535);
        assertThatThrownBy(() -> SqlText.parameterCount("SELECT $65536"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SqlText.parameterCount("SELECT $99999999999"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNegativeNumberCannotStartAComment() {
        assertThat(Parameters.literal("-1".getBytes(), (short) 0, 20)).isEqualTo("(-1)");
        assertThat(
                        SqlText.replaceParameters(
                                "SELECT 0-$1",
                                n -> Parameters.literal("-1".getBytes(), (short) 0, 20)))
                .isEqualTo("SELECT 0-(-1)");
        assertThatThrownBy(() -> Parameters.literal("1 OR TRUE".getBytes(), (short) 0, 20))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLiteralDoublesItsQuotes() {
        assertThat(SqlText.literal("it's")).isEqualTo("'it''s'");
    }
}
