package io.mtables.planning;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.sql.parser.impl.FlinkSqlParserImpl;
import org.apache.flink.sql.parser.validate.FlinkSqlConformance;

/** Flink SQL's parser settings, as Flink's own SQL client parses a statement. */
public final class FlinkSyntax {

    public static final SqlParser.Config PARSER =
            SqlParser.config()
                    .withParserFactory(FlinkSqlParserImpl.FACTORY)
                    .withConformance(FlinkSqlConformance.DEFAULT)
                    .withLex(Lex.JAVA)
                    .withIdentifierMaxLength(256);

    /** How a syntax tree is written back: as Flink writes an expanded query (backquoted names). */
    public static final SqlDialect DIALECT =
            new AnsiSqlDialect(
                    SqlDialect.EMPTY_CONTEXT
                            .withIdentifierQuoteString(Quoting.BACK_TICK.string)
                            .withQuotedCasing(Casing.UNCHANGED)
                            .withUnquotedCasing(Casing.UNCHANGED)
                            .withConformance(FlinkSqlConformance.DEFAULT));

    private FlinkSyntax() {}
}
