package io.mtables.ddl.infra;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.ddl.StatementError;
import java.util.regex.Pattern;

/**
 * Plain words for the parse errors users of the dialect hit most, where the grammar's list of
 * expected tokens does not say what the rule is.
 */
final class SyntaxHints {

    private static final Pattern CREATE_MATERIALIZED =
            Pattern.compile("(?is)^\\s*CREATE\\s+(?:OR\\s+ALTER\\s+)?MATERIALIZED\\s+TABLE\\b");

    private SyntaxHints() {}

    static StatementException explain(StatementException error, String text) {
        StatementError e = error.toError();
        if (CREATE_MATERIALIZED.matcher(text).find()) {
            if (e.allowed() != null
                    && e.allowed().contains("\"PRIMARY\"")
                    && e.allowed().contains("\"CONSTRAINT\"")) {
                return new StatementException(
                        StatementException.Category.INVALID,
                        "ColumnListNotAllowed",
                        "A materialized table's columns are derived from the query: a column list"
                                + " is not allowed.",
                        e.line(),
                        e.column(),
                        "(PRIMARY KEY (columns) NOT ENFORCED) as the only item in parentheses");
            }
            if (e.message().contains("\"DISTRIBUTED\"")) {
                return new StatementException(
                        StatementException.Category.INVALID,
                        e.reason(),
                        e.message()
                                + " In Flink's clause order DISTRIBUTED BY comes before PARTITIONED"
                                + " BY.",
                        e.line(),
                        e.column(),
                        "[(PRIMARY KEY ...)] [COMMENT] [DISTRIBUTED BY ...] [PARTITIONED BY (...)]"
                            + " [WITH (...)] [FRESHNESS = ...] [REFRESH_MODE = ...] AS <query>");
            }
        }
        if (e.line() == null) {
            String start = text.strip();
            start = start.length() > 40 ? start.substring(0, 40) + "..." : start;
            return new StatementException(
                    StatementException.Category.INVALID,
                    e.reason(),
                    e.message() + " (in \"" + start + "\")",
                    null,
                    null,
                    e.allowed());
        }
        return error;
    }
}
