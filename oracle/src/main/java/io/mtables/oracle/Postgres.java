package io.mtables.oracle;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The example's PostgreSQL database. */
public record Postgres(String url, String user, String password) {

    public static Postgres local() {
        return new Postgres(
                "jdbc:postgresql://"
                        + env("MT_PG_HOST", "127.0.0.1")
                        + ":"
                        + env("MT_PG_PORT", "5432")
                        + "/"
                        + env("MT_PG_DB", "mt"),
                env("MT_PG_USER", "mt"),
                env("MT_PG_PASSWORD", "mt"));
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    public void execute(List<String> statements) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** The rows of a query, each value normalized as {@link Rows#value} does. */
    public List<List<String>> rows(String query) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            List<List<String>> rows = new ArrayList<>();
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(Rows.value(result.getObject(i)));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
