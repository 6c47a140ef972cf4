package io.mtables.cdc.infra;

import io.mtables.cdc.CdcConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Gets the database ready for capture before Debezium starts: the captured tables send complete
 * before-images (REPLICA IDENTITY FULL) unless told not to.
 */
final class DatabasePreparation {

  private static final Logger LOG = Logger.getLogger(DatabasePreparation.class);

  private DatabasePreparation() {}

  static void prepare(CdcConfig config) {
    String url = "jdbc:postgresql://" + config.database().host() + ":" + config.database().port() + "/" + config.database().name();
    try (Connection connection = DriverManager.getConnection(url, config.database().user(), config.database().password());
        Statement statement = connection.createStatement()) {
      for (String table : capturedTablesWithoutFullIdentity(statement, config.tables())) {
        if (config.replicaIdentityFull()) {
          statement.execute("ALTER TABLE " + table + " REPLICA IDENTITY FULL");
          LOG.infof("set REPLICA IDENTITY FULL on %s: updates and deletes now carry the whole old row", table);
        } else {
          LOG.warnf("%s has no REPLICA IDENTITY FULL: its updates and deletes carry no complete old row, which Flink's"
              + " debezium-json needs (set mt.cdc.replica-identity-full=true or alter the table)", table);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot prepare " + url + " for capture: " + e.getMessage(), e);
    }
  }

  /** Tables matching the include list (full matches of {@code schema.table}, as Debezium does) whose replica identity is not FULL. */
  private static List<String> capturedTablesWithoutFullIdentity(Statement statement, List<String> includeList) throws SQLException {
    List<Pattern> patterns = includeList.stream().map(String::strip).filter(p -> !p.isEmpty()).map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
    List<String> tables = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery(
        "SELECT n.nspname, c.relname, c.relreplident FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'")) {
      while (rows.next()) {
        String name = rows.getString(1) + "." + rows.getString(2);
        if (!"f".equals(rows.getString(3)) && patterns.stream().anyMatch(p -> p.matcher(name).matches())) {
          tables.add("\"" + rows.getString(1).replace("\"", "\"\"") + "\".\"" + rows.getString(2).replace("\"", "\"\"") + "\"");
        }
      }
    }
    return tables;
  }
}
