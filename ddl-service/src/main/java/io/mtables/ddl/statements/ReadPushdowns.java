package io.mtables.ddl.statements;

import io.mtables.ddl.infra.PlainScan;
import io.mtables.ddl.infra.PushedDown;
import io.mtables.ddl.infra.PushedDown.Comparison;
import io.mtables.ddl.infra.PushedDown.Condition;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;

/**
 * What of a SELECT over one materialized table can be applied while the table is read ({@link
 * PushedDown}): the conjuncts of its WHERE that compare one of the table's columns with a literal,
 * and its LIMIT when the rows read go straight to the answer (no join, grouping, DISTINCT,
 * aggregate, ORDER BY, or a WHERE not wholly pushed down).
 */
final class ReadPushdowns {

    private static final Map<SqlKind, Comparison> COMPARISONS =
            Map.of(
                    SqlKind.EQUALS, Comparison.EQUAL,
                    SqlKind.NOT_EQUALS, Comparison.NOT_EQUAL,
                    SqlKind.LESS_THAN, Comparison.LESS,
                    SqlKind.LESS_THAN_OR_EQUAL, Comparison.LESS_OR_EQUAL,
                    SqlKind.GREATER_THAN, Comparison.GREATER,
                    SqlKind.GREATER_THAN_OR_EQUAL, Comparison.GREATER_OR_EQUAL);

    /** The same comparison with its operands swapped: {@code 5 < x} is {@code x > 5}. */
    private static final Map<Comparison, Comparison> SWAPPED =
            Map.of(
                    Comparison.EQUAL, Comparison.EQUAL,
                    Comparison.NOT_EQUAL, Comparison.NOT_EQUAL,
                    Comparison.LESS, Comparison.GREATER,
                    Comparison.LESS_OR_EQUAL, Comparison.GREATER_OR_EQUAL,
                    Comparison.GREATER, Comparison.LESS,
                    Comparison.GREATER_OR_EQUAL, Comparison.LESS_OR_EQUAL);

    private ReadPushdowns() {}

    /**
     * What {@code query} lets the read of its one table, whose columns are {@code columns}, apply.
     * A column is named bare, or after the table's alias or its name's last part.
     */
    static PushedDown of(SqlNode query, List<String> columns) {
        SqlNode body = query;
        SqlNode offset = null;
        SqlNode fetch = null;
        boolean ordered = false;
        if (query instanceof SqlOrderBy orderBy) {
            body = orderBy.query;
            offset = orderBy.offset;
            fetch = orderBy.fetch;
            ordered = !orderBy.orderList.isEmpty();
        }
        if (!(body instanceof SqlSelect select)) {
            return PushedDown.NOTHING;
        }
        if (select.getOffset() != null || select.getFetch() != null) {
            offset = select.getOffset();
            fetch = select.getFetch();
        }
        ordered |= select.getOrderList() != null && !select.getOrderList().isEmpty();
        List<String> qualifiers = qualifiers(select.getFrom());
        boolean nested =
                select.getOperandList().stream()
                                .filter(operand -> operand != select.getFrom())
                                .anyMatch(ReadPushdowns::nestsAQuery)
                        || (query instanceof SqlOrderBy orderBy && nestsAQuery(orderBy.orderList));
        if (qualifiers == null || nested) {
            // A join or a subquery in FROM: the rows read are not the answer's. A subquery
            // elsewhere may read the same table, and must see all of it.
            return PushedDown.NOTHING;
        }
        List<SqlNode> conjuncts = new ArrayList<>();
        conjuncts(select.getWhere(), conjuncts);
        List<Condition> conditions = new ArrayList<>();
        for (SqlNode conjunct : conjuncts) {
            condition(conjunct, columns, qualifiers).ifPresent(conditions::add);
        }
        boolean wholeWhere = conditions.size() == conjuncts.size();
        long limit = -1;
        if (fetch != null && !ordered && wholeWhere && rowsGoStraightToTheAnswer(select)) {
            Long rows = count(fetch);
            Long skipped = offset == null ? Long.valueOf(0) : count(offset);
            if (rows != null && skipped != null) {
                limit = rows + skipped;
            }
        }
        return new PushedDown(conditions, wholeWhere, limit);
    }

    /**
     * {@code query} as a {@link PlainScan} of its one table, whose columns are {@code columns}:
     * empty when it does more than pick columns (or {@code *}) of the rows its WHERE's comparisons
     * with literals select, with an OFFSET and a LIMIT of numbers.
     */
    static Optional<PlainScan> plainScan(SqlNode query, List<String> columns) {
        PushedDown pushed = of(query, columns);
        SqlNode body = query instanceof SqlOrderBy orderBy ? orderBy.query : query;
        if (!pushed.wholeWhere()
                || (query instanceof SqlOrderBy orderBy && !orderBy.orderList.isEmpty())
                || !(body instanceof SqlSelect select)
                || (select.getOrderList() != null && !select.getOrderList().isEmpty())
                || !rowsGoStraightToTheAnswer(select)) {
            return Optional.empty();
        }
        SqlNode offset = query instanceof SqlOrderBy orderBy ? orderBy.offset : null;
        SqlNode fetch = query instanceof SqlOrderBy orderBy ? orderBy.fetch : null;
        if (select.getOffset() != null || select.getFetch() != null) {
            offset = select.getOffset();
            fetch = select.getFetch();
        }
        Long skipped = offset == null ? Long.valueOf(0) : count(offset);
        Long most = fetch == null ? Long.valueOf(-1) : count(fetch);
        List<String> qualifiers = qualifiers(select.getFrom());
        if (skipped == null || most == null || qualifiers == null) {
            return Optional.empty();
        }
        List<String> shown = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier star && star.isStar()) {
                if (star.names.size() > 2
                        || (star.names.size() == 2 && !qualifiers.contains(star.names.get(0)))) {
                    return Optional.empty();
                }
                shown.addAll(columns);
                labels.addAll(columns);
                continue;
            }
            boolean renamed = item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS;
            Optional<String> column =
                    column(renamed ? ((SqlBasicCall) item).operand(0) : item, columns, qualifiers);
            if (column.isEmpty()
                    || (renamed && !(((SqlBasicCall) item).operand(1) instanceof SqlIdentifier))) {
                return Optional.empty();
            }
            shown.add(column.get());
            labels.add(
                    renamed
                            ? ((SqlIdentifier) ((SqlBasicCall) item).operand(1)).getSimple()
                            : column.get());
        }
        if (new java.util.HashSet<>(labels).size() < labels.size()) {
            return Optional.empty(); // the query names a repeated label its own way
        }
        return Optional.of(new PlainScan(shown, labels, pushed, skipped, most));
    }

    /**
     * The names a column of the one table in {@code from} may be qualified with, or null when
     * {@code from} is not one table.
     */
    private static List<String> qualifiers(SqlNode from) {
        if (from instanceof SqlIdentifier table) {
            return List.of(table.names.get(table.names.size() - 1));
        }
        if (from instanceof SqlBasicCall as
                && as.getKind() == SqlKind.AS
                && as.operandCount() == 2 // not AS d(x, y), which renames the columns
                && as.operand(0) instanceof SqlIdentifier
                && as.operand(1) instanceof SqlIdentifier alias) {
            return List.of(alias.getSimple());
        }
        return null;
    }

    private static boolean nestsAQuery(SqlNode node) {
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith) {
            return true;
        }
        if (node instanceof SqlNodeList list) {
            return list.stream().anyMatch(ReadPushdowns::nestsAQuery);
        }
        return node instanceof SqlCall call
                && call.getOperandList().stream().anyMatch(ReadPushdowns::nestsAQuery);
    }

    private static void conjuncts(SqlNode where, List<SqlNode> into) {
        if (where == null) {
            return;
        }
        if (where instanceof SqlCall call && call.getKind() == SqlKind.AND) {
            call.getOperandList().forEach(operand -> conjuncts(operand, into));
        } else {
            into.add(where);
        }
    }

    private static Optional<Condition> condition(
            SqlNode conjunct, List<String> columns, List<String> qualifiers) {
        if (!(conjunct instanceof SqlCall call)) {
            return Optional.empty();
        }
        if (call.getKind() == SqlKind.IS_NULL || call.getKind() == SqlKind.IS_NOT_NULL) {
            return column(call.operand(0), columns, qualifiers)
                    .map(
                            column ->
                                    new Condition(
                                            column,
                                            call.getKind() == SqlKind.IS_NULL
                                                    ? Comparison.IS_NULL
                                                    : Comparison.IS_NOT_NULL,
                                            null));
        }
        Comparison comparison = COMPARISONS.get(call.getKind());
        if (comparison == null || call.operandCount() != 2) {
            return Optional.empty();
        }
        Optional<String> left = column(call.operand(0), columns, qualifiers);
        Optional<Object> right = literal(call.operand(1));
        if (left.isPresent() && right.isPresent()) {
            return Optional.of(new Condition(left.get(), comparison, right.get()));
        }
        Optional<String> swappedColumn = column(call.operand(1), columns, qualifiers);
        Optional<Object> swappedLiteral = literal(call.operand(0));
        if (swappedColumn.isPresent() && swappedLiteral.isPresent()) {
            return Optional.of(
                    new Condition(
                            swappedColumn.get(), SWAPPED.get(comparison), swappedLiteral.get()));
        }
        return Optional.empty();
    }

    private static Optional<String> column(
            SqlNode node, List<String> columns, List<String> qualifiers) {
        if (!(node instanceof SqlIdentifier identifier) || identifier.isStar()) {
            return Optional.empty();
        }
        List<String> names = identifier.names;
        String column = names.get(names.size() - 1);
        boolean qualifiedRightly =
                names.size() == 1 || (names.size() == 2 && qualifiers.contains(names.get(0)));
        return qualifiedRightly && columns.contains(column)
                ? Optional.of(column)
                : Optional.empty();
    }

    /** A number, a string, a boolean or a DATE literal; empty for anything else (NULL too). */
    private static Optional<Object> literal(SqlNode node) {
        SqlNode value = node;
        boolean negated = false;
        if (node instanceof SqlCall call
                && call.getKind() == SqlKind.MINUS_PREFIX
                && call.operand(0) instanceof SqlNumericLiteral) {
            value = call.operand(0);
            negated = true;
        }
        if (value instanceof SqlUnknownLiteral typed && typed.tag.equalsIgnoreCase("DATE")) {
            try {
                value = typed.resolve(SqlTypeName.DATE); // DATE '...', as the parser leaves it
            } catch (RuntimeException notADate) {
                return Optional.empty(); // the query's own validation says what is wrong
            }
        }
        if (!(value instanceof SqlLiteral literal) || literal.getValue() == null) {
            return Optional.empty();
        }
        if (literal instanceof SqlNumericLiteral number) {
            if (!number.isExact()) {
                return Optional.empty(); // 1E3 is a double to the query, not a decimal
            }
            BigDecimal decimal = number.getValueAs(BigDecimal.class);
            return Optional.of(negated ? decimal.negate() : decimal);
        }
        SqlTypeName type = literal.getTypeName();
        if (type == SqlTypeName.CHAR && literal.getValue() instanceof NlsString text) {
            return Optional.of(text.getValue());
        }
        if (type == SqlTypeName.BOOLEAN) {
            return Optional.of(literal.booleanValue());
        }
        if (type == SqlTypeName.DATE) {
            return Optional.of(literal.getValueAs(DateString.class).getDaysSinceEpoch());
        }
        return Optional.empty();
    }

    /** Whether each row read is one row of the answer, so that LIMIT may stop the read. */
    private static boolean rowsGoStraightToTheAnswer(SqlSelect select) {
        if (select.isDistinct()
                || select.getGroup() != null
                || select.getHaving() != null
                || (select.getWindowList() != null && !select.getWindowList().isEmpty())
                || select.getQualify() != null) {
            return false;
        }
        for (SqlNode item : select.getSelectList()) {
            SqlNode value =
                    item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS
                            ? as.operand(0)
                            : item;
            if (!(value instanceof SqlIdentifier) && !(value instanceof SqlLiteral)) {
                return false; // an aggregate or a window hides in any call; plain columns only
            }
        }
        return true;
    }

    private static Long count(SqlNode node) {
        if (node instanceof SqlNumericLiteral number && number.isInteger()) {
            try {
                long value = number.getValueAs(BigDecimal.class).longValueExact();
                return value >= 0 ? value : null;
            } catch (ArithmeticException tooLarge) {
                return null;
            }
        }
        return null;
    }
}
