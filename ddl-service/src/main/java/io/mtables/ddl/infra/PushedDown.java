package io.mtables.ddl.infra;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;

/**
 * What of a SELECT over one table is applied while its rows are read, so that only the rows it
 * selects are held: comparisons of a column with a literal that its WHERE requires (Paimon skips
 * the files and row groups their statistics rule out, and each row read is tested), and its LIMIT
 * when nothing else stands between the rows read and the answer. The query still applies its whole
 * WHERE to the rows read: what is pushed down only reads fewer.
 *
 * @param conditions comparisons the WHERE requires (its conjuncts)
 * @param wholeWhere whether {@code conditions} are the whole WHERE (none when there is no WHERE)
 * @param limit the most rows the answer takes from the table (OFFSET + FETCH), or -1; it holds only
 *     when {@code wholeWhere} and every condition is applied
 */
public record PushedDown(List<Condition> conditions, boolean wholeWhere, long limit) {

    /** Nothing pushed down: the whole snapshot is read. */
    public static final PushedDown NOTHING = new PushedDown(List.of(), false, -1);

    public PushedDown {
        conditions = List.copyOf(conditions);
    }

    /** A comparison of a column with a literal. */
    public enum Comparison {
        EQUAL,
        NOT_EQUAL,
        LESS,
        LESS_OR_EQUAL,
        GREATER,
        GREATER_OR_EQUAL,
        IS_NULL,
        IS_NOT_NULL
    }

    /**
     * {@code column comparison value}.
     *
     * @param value a BigDecimal (a number), a String, a Boolean, an Integer (a DATE's days since
     *     1970-01-01), or null (IS [NOT] NULL)
     */
    public record Condition(String column, Comparison comparison, Object value) {}

    /**
     * What Paimon's read takes: the predicate, the limit it may stop at, and whether the predicate
     * is the whole WHERE ({@code exact}: the rows it passes are the answer's).
     */
    record Filter(Optional<Predicate> predicate, long limit, boolean exact) {}

    /**
     * The conditions as a Paimon predicate over {@code rowType}; those it cannot state with the
     * same meaning as the query (a type it does not compare alike, a literal its column cannot hold
     * exactly) are left to the query, and then so is the limit.
     */
    Filter filter(RowType rowType) {
        PredicateBuilder builder = new PredicateBuilder(rowType);
        List<Predicate> predicates = new ArrayList<>();
        for (Condition condition : conditions) {
            int index = rowType.getFieldIndex(condition.column());
            if (index < 0) {
                continue;
            }
            predicate(builder, index, rowType.getTypeAt(index), condition)
                    .ifPresent(predicates::add);
        }
        boolean exact = wholeWhere && predicates.size() == conditions.size();
        return new Filter(
                predicates.isEmpty()
                        ? Optional.empty()
                        : Optional.of(PredicateBuilder.and(predicates)),
                exact ? limit : -1,
                exact);
    }

    private static Optional<Predicate> predicate(
            PredicateBuilder builder, int index, DataType type, Condition condition) {
        if (condition.comparison() == Comparison.IS_NULL) {
            return Optional.of(builder.isNull(index));
        }
        if (condition.comparison() == Comparison.IS_NOT_NULL) {
            return Optional.of(builder.isNotNull(index));
        }
        Object literal = internal(type, condition);
        if (literal == null) {
            return Optional.empty();
        }
        return Optional.of(
                switch (condition.comparison()) {
                    case EQUAL -> builder.equal(index, literal);
                    case NOT_EQUAL -> builder.notEqual(index, literal);
                    case LESS -> builder.lessThan(index, literal);
                    case LESS_OR_EQUAL -> builder.lessOrEqual(index, literal);
                    case GREATER -> builder.greaterThan(index, literal);
                    case GREATER_OR_EQUAL -> builder.greaterOrEqual(index, literal);
                    default -> throw new IllegalStateException(condition.toString());
                });
    }

    /**
     * The literal as Paimon holds a value of {@code type}, or null when it cannot be compared the
     * way the query compares it.
     */
    private static Object internal(DataType type, Condition condition) {
        Object value = condition.value();
        boolean equality =
                condition.comparison() == Comparison.EQUAL
                        || condition.comparison() == Comparison.NOT_EQUAL;
        try {
            return switch (type.getTypeRoot()) {
                case TINYINT -> value instanceof BigDecimal n ? n.byteValueExact() : null;
                case SMALLINT -> value instanceof BigDecimal n ? n.shortValueExact() : null;
                case INTEGER -> value instanceof BigDecimal n ? n.intValueExact() : null;
                case BIGINT -> value instanceof BigDecimal n ? n.longValueExact() : null;
                case DECIMAL -> {
                    if (!(value instanceof BigDecimal n)) {
                        yield null;
                    }
                    DecimalType decimal = (DecimalType) type;
                    yield n.scale() > decimal.getScale()
                            ? null
                            : Decimal.fromBigDecimal(n, decimal.getPrecision(), decimal.getScale());
                }
                // Paimon orders strings by their UTF-8 bytes, the query by UTF-16 units: only
                // equality means the same to both.
                case CHAR, VARCHAR ->
                        value instanceof String text && equality
                                ? BinaryString.fromString(text)
                                : null;
                case BOOLEAN -> value instanceof Boolean b && equality ? b : null;
                case DATE -> value instanceof Integer days ? days : null;
                default -> null; // floating point, timestamps, ...: left to the query
            };
        } catch (ArithmeticException outOfRange) {
            return null;
        }
    }
}
