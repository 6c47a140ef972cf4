package io.mtables.planning;

import org.apache.calcite.config.Lex;
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

    private FlinkSyntax() {}
}
