package io.mtables.ddl.infra;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A query's shape: its text with each literal compared with a column ({@code table_name = 'x'},
 * {@code measured_lag > 60000}) replaced by a parameter, and those literals' values. Queries that
 * differ only in such values share one shape, so one prepared statement answers them all.
 *
 * @param text the query with {@code ?} in place of the literals
 * @param parameters the literals' values in the order of their {@code ?}: String, Long or
 *     BigDecimal
 */
record QueryShape(String text, List<Object> parameters) {

    private static final Set<SqlKind> COMPARISONS =
            Set.of(
                    SqlKind.EQUALS,
                    SqlKind.NOT_EQUALS,
                    SqlKind.LESS_THAN,
                    SqlKind.LESS_THAN_OR_EQUAL,
                    SqlKind.GREATER_THAN,
                    SqlKind.GREATER_THAN_OR_EQUAL);

    /** The shape of {@code query}; empty when it does not parse (its own run says why). */
    static Optional<QueryShape> of(String query) {
        SqlNode parsed;
        try {
            parsed = SqlParser.create(query, SqlParser.config().withLex(Lex.JAVA)).parseQuery();
        } catch (SqlParseException e) {
            return Optional.empty();
        }
        List<SqlLiteral> literals = new ArrayList<>();
        parsed.accept(
                new SqlBasicVisitor<Void>() {
                    @Override
                    public Void visit(SqlCall call) {
                        if (COMPARISONS.contains(call.getKind()) && call.operandCount() == 2) {
                            SqlNode left = call.operand(0);
                            SqlNode right = call.operand(1);
                            if (left instanceof SqlIdentifier && parameter(right)) {
                                literals.add((SqlLiteral) right);
                            } else if (right instanceof SqlIdentifier && parameter(left)) {
                                literals.add((SqlLiteral) left);
                            }
                        }
                        for (SqlNode operand : call.getOperandList()) {
                            if (operand != null) {
                                operand.accept(this);
                            }
                        }
                        return null;
                    }
                });
        literals.sort(
                Comparator.comparing(
                        SqlLiteral::getParserPosition,
                        Comparator.comparingInt(SqlParserPos::getLineNum)
                                .thenComparingInt(SqlParserPos::getColumnNum)));
        StringBuilder text = new StringBuilder(query);
        List<Object> values = new ArrayList<>();
        for (int i = literals.size() - 1; i >= 0; i--) {
            SqlParserPos at = literals.get(i).getParserPosition();
            text.replace(
                    offset(query, at.getLineNum(), at.getColumnNum()),
                    offset(query, at.getEndLineNum(), at.getEndColumnNum()) + 1,
                    "?");
            values.add(0, value(literals.get(i)));
        }
        return Optional.of(new QueryShape(text.toString(), values));
    }

    /** Strings and numbers: their parameter takes the column's type, as the literal would have. */
    private static boolean parameter(SqlNode node) {
        return node instanceof SqlCharStringLiteral || node instanceof SqlNumericLiteral;
    }

    private static Object value(SqlLiteral literal) {
        if (literal instanceof SqlCharStringLiteral text) {
            return text.getValueAs(String.class);
        }
        BigDecimal number = literal.getValueAs(BigDecimal.class);
        return number.scale() <= 0 ? (Object) number.longValueExact() : number;
    }

    /** The offset in {@code text} of a 1-based line and column. */
    private static int offset(String text, int line, int column) {
        int offset = 0;
        for (int current = 1; current < line; current++) {
            offset = text.indexOf('\n', offset) + 1;
        }
        return offset + column - 1;
    }
}
