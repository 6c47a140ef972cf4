package io.mtables.ddl.infra;

import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.Driver;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FilterableTable;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Runs a read-only SQL query with Calcite's in-process engine over tables held in memory: any
 * projection, filter, ordering, join or aggregate, with no Flink job (a Flink batch job per query
 * would start a mini cluster each time).
 */
public final class InMemorySql {

    private static final Pattern POSITION = Pattern.compile("line (\\d+), column (\\d+)");

    private InMemorySql() {}

    /**
     * A column of an in-memory table.
     *
     * @param name the column name
     * @param type Calcite's type; values are Java objects of that type (VARCHAR: String, BIGINT:
     *     Long, TIMESTAMP: epoch milliseconds as Long, DATE: days as Integer, DECIMAL: BigDecimal)
     * @param nullable whether it may hold null
     */
    public record Column(String name, SqlTypeName type, boolean nullable) {}

    /**
     * An in-memory table.
     *
     * @param path its schema path and name, such as [default_catalog, shop, orders]
     */
    public record Table(List<String> path, List<Column> columns, List<Object[]> rows)
            implements Source {}

    /** A table to query: rows held, or read on demand. */
    public sealed interface Source permits Table, LazyTable {
        List<String> path();

        List<Column> columns();
    }

    /**
     * A table whose rows are read when a query scans it, told the value the query fixes its first
     * column to ({@code WHERE first = 'x'}): given one, {@code rows} returns exactly the rows whose
     * first column is that value, and the query does not filter them again.
     */
    public record LazyTable(
            List<String> path,
            List<Column> columns,
            Function<Optional<String>, List<Object[]>> rows)
            implements Source {}

    /** A query's answer. */
    public record QueryRows(List<ResultColumn> columns, List<List<Object>> rows) {}

    /**
     * Runs {@code query} over {@code tables}.
     *
     * @param what what the query is over, for the error message ("information_schema query")
     * @param allowed what is allowed, for the error message
     */
    public static QueryRows query(
            String query, List<? extends Source> tables, String what, String allowed) {
        return query(query, tables, what, allowed, ReadLimits.NONE);
    }

    /** Runs {@code query} over {@code tables}, refused past {@code limits} of answer. */
    static QueryRows query(
            String query,
            List<? extends Source> tables,
            String what,
            String allowed,
            ReadLimits limits) {
        try (Connection connection = connect()) {
            for (Source table : tables) {
                add(connection, table, () -> table);
            }
            try (var statement = connection.createStatement();
                    ResultSet result = statement.executeQuery(query)) {
                return read(result, limits);
            }
        } catch (SQLException e) {
            String message = rootMessage(e);
            throw StatementException.invalidAt(
                    "InvalidStatement", what + " failed: " + message, position(e), allowed);
        }
    }

    /**
     * Where in the query {@code error} is: the first "line L, column C" of its causes (Calcite puts
     * it on the context exception around the validator's message, not on the message itself).
     */
    private static SourcePosition position(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            Matcher from = POSITION.matcher(String.valueOf(cause.getMessage()));
            if (from.find()) {
                return new SourcePosition(
                        Integer.parseInt(from.group(1)), Integer.parseInt(from.group(2)));
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /** A Calcite connection of its own, with no tables yet. */
    static Connection connect() throws SQLException {
        Properties info = new Properties();
        info.setProperty("lex", "JAVA");
        // The driver directly, not DriverManager: under Quarkus, DriverManager does not see it.
        return new Driver().connect("jdbc:calcite:", info);
    }

    /**
     * Adds a table of {@code shape}'s path and columns to the connection's schema, whose rows are
     * {@code current}'s when a query scans it.
     */
    static void add(Connection connection, Source shape, Supplier<? extends Source> current)
            throws SQLException {
        SchemaPlus schema = connection.unwrap(CalciteConnection.class).getRootSchema();
        for (String part : shape.path().subList(0, shape.path().size() - 1)) {
            SchemaPlus existing = schema.getSubSchema(part);
            schema = existing != null ? existing : schema.add(part, new AbstractSchema());
        }
        schema.add(
                shape.path().get(shape.path().size() - 1),
                shape instanceof Table held
                        ? new Rows(held.columns(), () -> ((Table) current.get()).rows())
                        : new FilteredRows(
                                ((LazyTable) shape).columns(),
                                first -> ((LazyTable) current.get()).rows().apply(first)));
    }

    static QueryRows read(ResultSet result) throws SQLException {
        return read(result, ReadLimits.NONE);
    }

    /**
     * The rows of {@code result}: refused ({@code ResultTooLarge}) past {@code limits}, and stopped
     * when the reading thread is interrupted (a read past its timeout).
     */
    static QueryRows read(ResultSet result, ReadLimits limits) throws SQLException {
        ResultSetMetaData meta = result.getMetaData();
        List<ResultColumn> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(new ResultColumn(meta.getColumnLabel(i), meta.getColumnTypeName(i)));
        }
        List<List<Object>> rows = new ArrayList<>();
        ReadLimits.Tally held = limits.tally();
        while (result.next()) {
            if (held.full()) {
                throw StatementException.invalid(
                        WarehouseReader.RESULT_TOO_LARGE,
                        "The answer has more than "
                                + limits.maxRows()
                                + " rows (mt.ddl.read-max-rows).",
                        "a narrower SELECT (WHERE, LIMIT, an aggregate)");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("the query was stopped");
            }
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                Object value = result.getObject(i);
                row.add(
                        value instanceof Timestamp timestamp
                                ? timestamp.toInstant().toString()
                                : value instanceof Date date ? date.toString() : value);
            }
            rows.add(row);
            if (!held.add(row)) {
                throw StatementException.invalid(
                        WarehouseReader.RESULT_TOO_LARGE,
                        "The answer holds more than "
                                + limits.maxBytes()
                                + " bytes of values (mt.ddl.read-max-bytes) by its row "
                                + rows.size()
                                + ".",
                        "fewer or narrower columns, a narrower SELECT (WHERE, LIMIT, an"
                                + " aggregate), or a larger mt.ddl.read-max-bytes");
            }
        }
        return new QueryRows(columns, rows);
    }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? error.getMessage() : root.getMessage();
    }

    /**
     * {@code rows} as Calcite enumerates them, stopped at the next row once the reading thread is
     * interrupted (a read's timeout, its client's cancel): a join or an aggregate does all its work
     * before its first row of answer, so a check per row of answer alone would come too late.
     */
    private static Enumerable<Object[]> interruptible(List<Object[]> rows) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                Enumerator<Object[]> each = Linq4j.enumerator(rows);
                return new Enumerator<>() {
                    @Override
                    public Object[] current() {
                        return each.current();
                    }

                    @Override
                    public boolean moveNext() {
                        if (Thread.currentThread().isInterrupted()) {
                            throw new IllegalStateException("the query was stopped");
                        }
                        return each.moveNext();
                    }

                    @Override
                    public void reset() {
                        each.reset();
                    }

                    @Override
                    public void close() {
                        each.close();
                    }
                };
            }
        };
    }

    private static RelDataType rowType(RelDataTypeFactory types, List<Column> columns) {
        var builder = types.builder();
        for (Column column : columns) {
            RelDataType type =
                    column.type() == SqlTypeName.DECIMAL
                            ? types.createSqlType(SqlTypeName.DECIMAL, 38, 10)
                            : types.createSqlType(column.type());
            builder.add(column.name(), types.createTypeWithNullability(type, column.nullable()));
        }
        return builder.build();
    }

    /**
     * A table read on demand. Calcite hands it the query's conjunctive filters; an equality of the
     * first column with a literal, or with a parameter of a prepared query, narrows the read to the
     * rows it names and, when it is a filter of its own, is taken off the list (the others stay,
     * for Calcite to apply): a filter left to Calcite's interpreter is compiled to Java at every
     * run, which was half of a prepared history query's time, its class lookups going through
     * Quarkus's class loader.
     */
    private static final class FilteredRows extends AbstractTable implements FilterableTable {
        private final List<Column> columns;
        private final Function<Optional<String>, List<Object[]>> rows;

        FilteredRows(List<Column> columns, Function<Optional<String>, List<Object[]>> rows) {
            this.columns = columns;
            this.rows = rows;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            return rowType(types, columns);
        }

        @Override
        public Enumerable<Object[]> scan(DataContext root, List<RexNode> filters) {
            // A filter may come as one AND of several conditions: the read is narrowed by the
            // equality in it, and the whole AND stays for Calcite (it accepts back only filters it
            // handed over).
            for (int i = 0; i < filters.size(); i++) {
                for (var condition : RelOptUtil.conjunctions(filters.get(i))) {
                    Optional<String> first = firstColumnEquals(condition, root);
                    if (first.isPresent()) {
                        if (condition == filters.get(i)) {
                            filters.remove(i);
                        }
                        return interruptible(rows.apply(first));
                    }
                }
            }
            return interruptible(rows.apply(Optional.empty()));
        }

        /**
         * The value {@code condition} fixes the first column to, if it is {@code first = value}.
         */
        private static Optional<String> firstColumnEquals(RexNode condition, DataContext root) {
            if (!condition.isA(SqlKind.EQUALS) || !(condition instanceof RexCall call)) {
                return Optional.empty();
            }
            var left = call.getOperands().get(0);
            var right = call.getOperands().get(1);
            return left instanceof RexInputRef ref && ref.getIndex() == 0
                    ? valueOf(right, root)
                    : right instanceof RexInputRef ref && ref.getIndex() == 0
                            ? valueOf(left, root)
                            : Optional.empty();
        }

        /**
         * A literal's text, or a prepared query's parameter's (Calcite holds the values as "?0",
         * "?1", ...).
         */
        private static Optional<String> valueOf(RexNode node, DataContext root) {
            if (node instanceof RexLiteral literal) {
                return Optional.ofNullable(literal.getValueAs(String.class));
            }
            if (node instanceof RexDynamicParam parameter
                    && root.get("?" + parameter.getIndex()) instanceof String value) {
                return Optional.of(value);
            }
            return Optional.empty();
        }
    }

    /** A table over rows held in memory. */
    private static final class Rows extends AbstractTable implements ScannableTable {

        private final List<Column> columns;
        private final Supplier<List<Object[]>> rows;

        Rows(List<Column> columns, Supplier<List<Object[]>> rows) {
            this.columns = columns;
            this.rows = rows;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            return rowType(types, columns);
        }

        @Override
        public Enumerable<Object[]> scan(DataContext root) {
            return interruptible(rows.get());
        }
    }
}
