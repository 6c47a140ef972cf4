package io.mtables.cdc.infra;

import io.mtables.cdc.CdcConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Gets the database ready for capture before Debezium starts: the captured tables send complete
 * before-images (REPLICA IDENTITY FULL) unless told not to. Returns the captured tables.
 */
final class DatabasePreparation {

    private static final Logger LOG = Logger.getLogger(DatabasePreparation.class);

    private DatabasePreparation() {}

    /**
     * A captured table, as Debezium names it in its topics ({@code schema.table}), its quoted SQL
     * name, and PostgreSQL's estimate of its rows ({@code pg_class.reltuples}; null for a table
     * never analyzed or vacuumed), which a snapshot's progress is told against.
     */
    record CapturedTable(String name, String quoted, boolean fullIdentity, Long estimatedRows) {}

    static List<CapturedTable> prepare(CdcConfig config) {
        String url =
                "jdbc:postgresql://"
                        + config.database().host()
                        + ":"
                        + config.database().port()
                        + "/"
                        + config.database().name();
        Properties settings = new Properties();
        settings.setProperty("user", config.database().user());
        settings.setProperty("password", config.database().password());
        config.database().tls().forEach(settings::setProperty); // sslmode, sslrootcert
        try (Connection connection = DriverManager.getConnection(url, settings);
                Statement statement = connection.createStatement()) {
            List<CapturedTable> tables =
                    capturedTables(statement, CdcConfig.includeList(config.tables()));
            for (CapturedTable table : tables) {
                if (table.fullIdentity()) {
                    continue;
                }
                if (config.replicaIdentityFull()) {
                    statement.execute("ALTER TABLE " + table.quoted() + " REPLICA IDENTITY FULL");
                    LOG.infof(
                            "set REPLICA IDENTITY FULL on %s: updates and deletes now carry the"
                                    + " whole old row",
                            table.quoted());
                } else {
                    LOG.warnf(
                            "%s has no REPLICA IDENTITY FULL: its updates and deletes carry no"
                                    + " complete old row, which Flink's debezium-json needs (set"
                                    + " mt.cdc.replica-identity-full=true or alter the table)",
                            table.quoted());
                }
            }
            return tables;
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot prepare "
                            + url
                            + " (sslmode="
                            + config.database().sslmode().libpqName()
                            + ") for capture: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Tables matching the include list (full matches of {@code schema.table}, as Debezium does).
     */
    private static List<CapturedTable> capturedTables(Statement statement, List<String> includeList)
            throws SQLException {
        List<Pattern> patterns =
                includeList.stream()
                        .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE))
                        .toList();
        List<CapturedTable> tables = new ArrayList<>();
        try (ResultSet rows =
                statement.executeQuery(
                        "SELECT n.nspname, c.relname, c.relreplident, c.reltuples FROM pg_class c"
                            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN"
                            + " ('r', 'p') AND n.nspname NOT IN ('pg_catalog',"
                            + " 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'")) {
            while (rows.next()) {
                String name = rows.getString(1) + "." + rows.getString(2);
                if (patterns.stream().anyMatch(p -> p.matcher(name).matches())) {
                    String quoted =
                            "\""
                                    + rows.getString(1).replace("\"", "\"\"")
                                    + "\".\""
                                    + rows.getString(2).replace("\"", "\"\"")
                                    + "\"";
                    double estimate = rows.getDouble(4); // -1: never analyzed (PostgreSQL 14+)
                    tables.add(
                            new CapturedTable(
                                    name,
                                    quoted,
                                    "f".equals(rows.getString(3)),
                                    estimate < 0 ? null : Math.round(estimate)));
                }
            }
        }
        return tables;
    }
}
