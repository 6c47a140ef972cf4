package io.mtables.ddl.infra;

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
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Answers {@code SELECT ... FROM information_schema.materialized_tables} with Calcite's own
 * in-process engine over the current rows: any projection, filter, ordering or aggregate, with no
 * Flink job (a Flink batch job per query would start a mini cluster each time).
 */
public final class InformationSchema {

  /** The columns of {@code information_schema.materialized_tables}, in order. */
  public static final List<ResultColumn> COLUMNS =
      List.of(
          new ResultColumn("table_name", "STRING"),
          new ResultColumn("refresh_mode", "STRING"),
          new ResultColumn("freshness", "STRING"),
          new ResultColumn("status", "STRING"),
          new ResultColumn("definition_version", "BIGINT"),
          new ResultColumn("last_refresh", "TIMESTAMP"),
          new ResultColumn("next_refresh", "TIMESTAMP"),
          new ResultColumn("job_id", "STRING"),
          new ResultColumn("job_running_time", "BIGINT"),
          new ResultColumn("measured_lag", "BIGINT"));

  private static final java.util.regex.Pattern POSITION = java.util.regex.Pattern.compile("line (\\d+), column (\\d+)");

  /** Whether {@code statement} is a query that reads information_schema: Calcite answers it, not Flink. */
  public static boolean isQueryOver(String statement) {
    return QUERY.matcher(statement).find() && MENTIONS.matcher(statement).find();
  }

  private static final java.util.regex.Pattern QUERY = java.util.regex.Pattern.compile("(?is)^\\s*(SELECT|WITH|VALUES|\\()");
  private static final java.util.regex.Pattern MENTIONS = java.util.regex.Pattern.compile("(?i)\\binformation_schema\\b");

  private InformationSchema() {}

  /**
   * Runs {@code query} over {@code rows}.
   *
   * @param rows one array per materialized table, values in the order of {@link #COLUMNS}
   *     (timestamps as epoch milliseconds)
   */
  public static QueryRows query(String query, List<Object[]> rows) {
    Properties info = new Properties();
    info.setProperty("lex", "JAVA");
    // The driver directly, not DriverManager: under Quarkus, DriverManager does not see it.
    try (Connection connection = new org.apache.calcite.jdbc.Driver().connect("jdbc:calcite:", info)) {
      var root = connection.unwrap(CalciteConnection.class).getRootSchema();
      root.add("information_schema", new AbstractSchema()).add("materialized_tables", new Rows(rows));
      try (var statement = connection.createStatement(); ResultSet result = statement.executeQuery(query)) {
        return read(result);
      }
    } catch (SQLException e) {
      String message = rootMessage(e);
      java.util.regex.Matcher from = POSITION.matcher(message);
      var at = from.find() ? new io.mtables.ddl.domain.SourcePosition(Integer.parseInt(from.group(1)), Integer.parseInt(from.group(2))) : null;
      throw StatementException.invalidAt(
          "InvalidStatement",
          "information_schema query failed: " + message,
          at,
          "SELECT <columns of " + COLUMNS.stream().map(ResultColumn::name).toList() + "> FROM information_schema.materialized_tables [WHERE ...] [ORDER BY ...] [LIMIT n]");
    }
  }

  /**
   * A query's answer.
   *
   * @param columns the columns
   * @param rows the rows
   */
  public record QueryRows(List<ResultColumn> columns, List<List<Object>> rows) {}

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
        row.add(value instanceof Timestamp timestamp ? timestamp.toInstant().toString() : value);
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

  /** The table over the rows of one query. */
  private static final class Rows extends AbstractTable implements ScannableTable {

    private final List<Object[]> rows;

    Rows(List<Object[]> rows) {
      this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory types) {
      var builder = types.builder();
      for (ResultColumn column : COLUMNS) {
        SqlTypeName type =
            switch (column.type()) {
              case "BIGINT" -> SqlTypeName.BIGINT;
              case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
              default -> SqlTypeName.VARCHAR;
            };
        builder.add(column.name(), type).nullable(!column.name().equals("table_name"));
      }
      return builder.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows);
    }
  }
}
