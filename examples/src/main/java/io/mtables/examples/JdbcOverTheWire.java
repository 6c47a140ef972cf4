package io.mtables.examples;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/**
 * JDBC over PostgreSQL's wire protocol (docs/clients.md): lists the materialized tables, then reads
 * one in batches of 1,000 rows, with a filter bound as a parameter.
 *
 * <p>Usage: {@code JdbcOverTheWire <table> <column> <value> [jdbc url]}, the token in {@code
 * MT_TOKEN}. For example {@code JdbcOverTheWire demo.user_domains domain_id 4
 * "jdbc:postgresql://127.0.0.1:5433/mtables?sslmode=require"}.
 */
public final class JdbcOverTheWire {

    private JdbcOverTheWire() {}

    public static void main(String[] args) throws Exception {
        String table = args[0];
        String column = args[1];
        String value = args[2];
        String url =
                args.length > 3
                        ? args[3]
                        : "jdbc:postgresql://127.0.0.1:5433/mtables?sslmode=require";
        Properties credentials = new Properties();
        credentials.setProperty("user", "me"); // not checked: who you are is the token's
        credentials.setProperty("password", System.getenv("MT_TOKEN"));
        try (Connection connection = DriverManager.getConnection(url, credentials)) {
            try (Statement statement = connection.createStatement();
                    ResultSet tables = statement.executeQuery("SHOW MATERIALIZED TABLES")) {
                while (tables.next()) {
                    System.out.printf(
                            "%s  %s  %s%n",
                            tables.getString("table_name"),
                            tables.getString("refresh_mode"),
                            tables.getString("status"));
                }
            }
            connection.setAutoCommit(false); // pgJDBC reads by its fetch size only inside a block
            try (PreparedStatement select =
                    connection.prepareStatement(
                            "SELECT * FROM " + table + " WHERE " + column + " = ?")) {
                select.setFetchSize(1000);
                select.setString(1, value);
                try (ResultSet rows = select.executeQuery()) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        StringBuilder line = new StringBuilder();
                        for (int i = 1; i <= columns; i++) {
                            line.append(i > 1 ? " | " : "").append(rows.getString(i));
                        }
                        System.out.println(line);
                    }
                }
            }
            connection.commit();
        }
    }
}
