package io.mtables.ddl.wire;

import static org.assertj.core.api.Assertions.assertThat;

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
    void aLiteralDoublesItsQuotes() {
        assertThat(SqlText.literal("it's")).isEqualTo("'it''s'");
    }
}
