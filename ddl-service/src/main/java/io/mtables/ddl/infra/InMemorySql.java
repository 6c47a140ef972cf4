package io.mtables.ddl.infra;

import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
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
  public record Table(List<String> path, List<Column> columns, List<Object[]> rows) implements Source {}

  /** A table to query: rows held, or read on demand. */
  public sealed interface Source permits Table, LazyTable {
    List<String> path();

    List<Column> columns();
  }

  /**
   * A table whose rows are read when a query scans it, told the value the query fixes its first
   * column to ({@code WHERE first = 'x'}), so that only those rows need reading.
   */
  public record LazyTable(List<String> path, List<Column> columns, java.util.function.Function<java.util.Optional<String>, List<Object[]>> rows)
      implements Source {}

  /** A query's answer. */
  public record QueryRows(List<ResultColumn> columns, List<List<Object>> rows) {}

  /**
   * Runs {@code query} over {@code tables}.
   *
   * @param what what the query is over, for the error message ("information_schema query")
   * @param allowed what is allowed, for the error message
   */
  public static QueryRows query(String query, List<? extends Source> tables, String what, String allowed) {
    Properties info = new Properties();
    info.setProperty("lex", "JAVA");
    // The driver directly, not DriverManager: under Quarkus, DriverManager does not see it.
    try (Connection connection = new org.apache.calcite.jdbc.Driver().connect("jdbc:calcite:", info)) {
      SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      for (Source table : tables) {
        SchemaPlus schema = root;
        for (String part : table.path().subList(0, table.path().size() - 1)) {
          SchemaPlus existing = schema.getSubSchema(part);
          schema = existing != null ? existing : schema.add(part, new AbstractSchema());
        }
        schema.add(table.path().get(table.path().size() - 1), table instanceof Table held ? new Rows(held) : new FilteredRows((LazyTable) table));
      }
      try (var statement = connection.createStatement(); ResultSet result = statement.executeQuery(query)) {
        return read(result);
      }
    } catch (SQLException e) {
      String message = rootMessage(e);
      Matcher from = POSITION.matcher(message);
      SourcePosition at = from.find() ? new SourcePosition(Integer.parseInt(from.group(1)), Integer.parseInt(from.group(2))) : null;
      throw StatementException.invalidAt("InvalidStatement", what + " failed: " + message, at, allowed);
    }
  }

  private static QueryRows read(ResultSet result) throws SQLException {
    ResultSetMetaData meta = result.getMetaData();
    List<ResultColumn> columns = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      columns.add(new ResultColumn(meta.getColumnLabel(i), meta.getColumnTypeName(i)));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (result.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= columns.size(); i++) {
        Object value = result.getObject(i);
        row.add(value instanceof Timestamp timestamp ? timestamp.toInstant().toString() : value instanceof java.sql.Date date ? date.toString() : value);
      }
      rows.add(row);
    }
    return new QueryRows(columns, rows);
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? error.getMessage() : root.getMessage();
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
   * first column with a literal narrows the read. The filters stay in the list, so Calcite still
   * applies every one of them to what is read.
   */
  private static final class FilteredRows extends AbstractTable implements org.apache.calcite.schema.FilterableTable {
    private final LazyTable table;

    FilteredRows(LazyTable table) {
      this.table = table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory types) {
      return rowType(types, table.columns());
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root, List<org.apache.calcite.rex.RexNode> filters) {
      java.util.Optional<String> first = java.util.Optional.empty();
      for (var filter : filters) {
        if (filter.isA(org.apache.calcite.sql.SqlKind.EQUALS) && filter instanceof org.apache.calcite.rex.RexCall call) {
          var left = call.getOperands().get(0);
          var right = call.getOperands().get(1);
          if (left instanceof org.apache.calcite.rex.RexInputRef ref && ref.getIndex() == 0 && right instanceof org.apache.calcite.rex.RexLiteral literal) {
            first = java.util.Optional.ofNullable(literal.getValueAs(String.class));
          } else if (right instanceof org.apache.calcite.rex.RexInputRef ref && ref.getIndex() == 0 && left instanceof org.apache.calcite.rex.RexLiteral literal) {
            first = java.util.Optional.ofNullable(literal.getValueAs(String.class));
          }
        }
      }
      return Linq4j.asEnumerable(table.rows().apply(first));
    }
  }

  /** A table over rows held in memory. */
  private static final class Rows extends AbstractTable implements ScannableTable {

    private final Table table;

    Rows(Table table) {
      this.table = table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory types) {
      return rowType(types, table.columns());
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(table.rows());
    }
  }
}
