package io.mtables.ddl.pgcatalog;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Answers the queries PostgreSQL's clients send about {@code pg_catalog} (psql's {@code \l \dn \dt
 * \d}, pgJDBC's DatabaseMetaData, BI tools browsing a database) over the tables a caller may see.
 * They are real SQL (joins, CASE, subqueries, regular expressions), so a SQL engine runs them: an
 * in-memory H2 database in its PostgreSQL mode holding PostgreSQL's catalog tables
 * (pg_catalog.sql), refilled when the tables seen change. No maintained library emulates pg_catalog
 * over a catalog of one's own; H2's own pg_catalog describes H2's tables and lacks the columns psql
 * reads.
 */
public final class PgCatalog {

    /** The reason of a catalog query the emulation cannot answer. */
    public static final String UNSUPPORTED = "UnsupportedCatalogQuery";

    private static final Pattern CREATED =
            Pattern.compile(
                    "(?i)CREATE\\s+(?:TABLE|VIEW|ALIAS|DOMAIN)\\s+(mtpg|mtis)\\.(\"[^\"]+\"|\\w+)");
    private static final Pattern QUERY = Pattern.compile("(?is)^\\s*(SELECT|WITH|\\()");
    private static final Pattern MENTIONS =
            Pattern.compile(
                    "(?i)\\bpg_catalog\\s*\\.|\\bpg_(class|namespace|attribute|type|index|database"
                            + "|roles|user|proc|settings|description|constraint|am|tablespace"
                            + "|get_userbyid|table_is_visible|get_expr)\\b"
                            + "|\\binformation_schema\\s*\\.\\s*(schemata|tables|columns"
                            + "|table_constraints|key_column_usage)\\b");

    /**
     * The settings of the in-memory database: PostgreSQL's mode; the catalog's functions may be
     * named as H2's built-in ones (pg_get_userbyid).
     */
    private static final String SETTINGS =
            ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;BUILTIN_ALIAS_OVERRIDE=TRUE;"
                    + "DEFAULT_NULL_ORDERING=HIGH";

    private static final Logger LOG = Logger.getLogger(PgCatalog.class);

    /** The longest a catalog query may run. */
    private static final long MAX_SECONDS = 10;

    /** The names the emulation defines in its schema (pg_catalog.sql). */
    private static final Set<String> EMULATED = emulatedNames();

    /** The database's owner: it defines and fills the catalog. */
    private Connection connection;

    /**
     * Where clients' queries run: a user that may only read the catalog's two schemas, so that a
     * query cannot reach what H2 gives an administrator (files, other databases, Java classes).
     */
    private Connection reader;

    private PgCatalogRows rows;

    /** The oids given so far, kept across a fresh database: a client may send one back later. */
    private final PgCatalogRows.Oids oids = new PgCatalogRows.Oids();

    private List<TableDefinition> loaded;

    /** Whether {@code statement} is a query that reads PostgreSQL's catalog. */
    public static boolean isQueryOver(String statement) {
        return QUERY.matcher(statement).find() && PgCatalogSql.mentions(statement, MENTIONS);
    }

    /**
     * The answer of {@code query} over {@code tables}: at most {@code maxRows} + 1 rows, so that
     * the caller can tell an answer that is too large.
     */
    public synchronized Answer query(
            String query, List<TableDefinition> tables, int maxRows, Duration timeout) {
        if (!PgCatalogSql.oneStatement(query)) {
            throw StatementException.invalid(
                    UNSUPPORTED,
                    "A query over PostgreSQL's catalog is one statement; this one has more after"
                            + " a ';'.",
                    "one SELECT per query");
        }
        String h2 = PgCatalogSql.toH2(query, EMULATED);
        try {
            open();
            if (!tables.equals(loaded)) {
                rows.load(tables);
                loaded = List.copyOf(tables);
            }
        } catch (SQLException e) {
            close(); // the emulation itself failed: a fresh database next time
            throw new IllegalStateException("the emulated pg_catalog failed: " + e.getMessage(), e);
        }
        try (Statement statement = reader.createStatement()) {
            statement.setMaxRows(maxRows + 1);
            // Catalog queries take milliseconds; one that takes longer holds every other caller's
            // (the emulation answers one at a time), so it gets less than a read's timeout.
            statement.setQueryTimeout(
                    (int) Math.max(1, Math.min(MAX_SECONDS, timeout.toSeconds())));
            try (ResultSet result = statement.executeQuery(h2)) {
                return answer(result);
            }
        } catch (SQLException e) {
            LOG.debugf("A query over pg_catalog failed as %s: %s", h2, e.getMessage());
            throw StatementException.invalid(
                    UNSUPPORTED,
                    "PostgreSQL's catalog is emulated in part, and this query over it failed: "
                            + firstLine(e.getMessage()),
                    "the queries of psql's \\l, \\dn, \\dt, \\d and \\d+, of pgJDBC's"
                            + " DatabaseMetaData, and SELECTs over the pg_catalog tables of"
                            + " docs/clients.md");
        }
    }

    /** The columns and rows of an answer. */
    public record Answer(List<ResultColumn> columns, List<List<Object>> rows) {}

    private void open() throws SQLException {
        if (connection != null) {
            return;
        }
        // A database of this instance's own, named so that the reader can connect to it too.
        String url = "jdbc:h2:mem:mt_pgcatalog_" + UUID.randomUUID().toString().replace("-", "");
        String password = UUID.randomUUID().toString();
        // H2's driver directly, not DriverManager: it only hands out drivers its caller's class
        // loader sees, and Quarkus's loaders are not the one that registered H2.
        Connection opened = new org.h2.Driver().connect(url + SETTINGS, new Properties());
        Connection readOnly = null;
        try (Statement statement = opened.createStatement()) {
            // First, while the database is empty, as H2 requires.
            statement.execute("SET JAVA_OBJECT_SERIALIZER '" + NoJavaObjects.class.getName() + "'");
            for (String sql : script().split(";\\s*\n")) {
                String trimmed = stripComments(sql);
                if (!trimmed.isBlank()) {
                    statement.execute(trimmed);
                }
            }
            PgCatalogRows.loadTypes(opened);
            statement.execute("CREATE USER mt_reader PASSWORD '" + password + "'");
            statement.execute("GRANT SELECT ON SCHEMA mtpg TO mt_reader");
            statement.execute("GRANT SELECT ON SCHEMA mtis TO mt_reader");
            Properties credentials = new Properties();
            credentials.setProperty("user", "mt_reader");
            credentials.setProperty("password", password);
            readOnly = new org.h2.Driver().connect(url, credentials);
            try (Statement search = readOnly.createStatement()) {
                search.execute("SET SCHEMA_SEARCH_PATH mtpg, public");
            }
        } catch (SQLException e) {
            if (readOnly != null) {
                readOnly.close();
            }
            opened.close();
            throw e;
        }
        connection = opened;
        reader = readOnly;
        rows = new PgCatalogRows(opened, oids);
        loaded = null;
    }

    private synchronized void close() {
        for (Connection open : new Connection[] {reader, connection}) {
            try {
                if (open != null) {
                    open.close();
                }
            } catch (SQLException e) {
                // Closing the last connection frees the in-memory database; nothing else to do.
            }
        }
        reader = null;
        connection = null;
        rows = null;
        loaded = null;
    }

    private static String script() throws SQLException {
        try (InputStream in = PgCatalog.class.getResourceAsStream("/pgcatalog/pg_catalog.sql")) {
            if (in == null) {
                throw new SQLException("pgcatalog/pg_catalog.sql is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SQLException("pgcatalog/pg_catalog.sql could not be read", e);
        }
    }

    private static Set<String> emulatedNames() {
        try {
            Set<String> names = new HashSet<>();
            Matcher created = CREATED.matcher(script());
            while (created.find()) {
                String schema =
                        created.group(1).equalsIgnoreCase("mtpg")
                                ? "pg_catalog."
                                : "information_schema.";
                names.add(schema + created.group(2).replace("\"", "").toLowerCase(Locale.ROOT));
            }
            return Set.copyOf(names);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static String stripComments(String sql) {
        StringBuilder out = new StringBuilder();
        for (String line : sql.split("\n")) {
            if (!line.trim().startsWith("--")) {
                out.append(line).append('\n');
            }
        }
        return out.toString().trim();
    }

    private static Answer answer(ResultSet result) throws SQLException {
        ResultSetMetaData meta = result.getMetaData();
        List<ResultColumn> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            int type = meta.getColumnType(i);
            if (type == Types.JAVA_OBJECT || type == Types.OTHER) {
                // Reading one would deserialize bytes the client chose.
                throw new SQLException(
                        "column "
                                + meta.getColumnLabel(i)
                                + " is a Java object, not a value of the catalog");
            }
            columns.add(new ResultColumn(meta.getColumnLabel(i), typeName(type)));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (result.next()) {
            List<Object> row = new ArrayList<>(columns.size());
            for (int i = 1; i <= columns.size(); i++) {
                row.add(value(result.getObject(i)));
            }
            rows.add(row);
        }
        return new Answer(columns, rows);
    }

    /** Flink's name of the type H2 answers with, as the doors map it to PostgreSQL's. */
    private static String typeName(int jdbcType) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> "BOOLEAN";
            case Types.SMALLINT, Types.TINYINT -> "SMALLINT";
            case Types.INTEGER -> "INT";
            case Types.BIGINT -> "BIGINT";
            case Types.REAL -> "FLOAT";
            case Types.DOUBLE, Types.FLOAT -> "DOUBLE";
            case Types.NUMERIC, Types.DECIMAL -> "DECIMAL";
            case Types.TIMESTAMP -> "TIMESTAMP";
            case Types.TIMESTAMP_WITH_TIMEZONE -> "TIMESTAMP_LTZ";
            case Types.DATE -> "DATE";
            default -> "STRING"; // text, and arrays in PostgreSQL's text form
        };
    }

    /** A value as the doors send it: arrays in PostgreSQL's text form ({@code {1,2}}). */
    private static Object value(Object value) throws SQLException {
        if (value instanceof Array array) {
            Object[] elements = (Object[]) array.getArray();
            StringBuilder text = new StringBuilder("{");
            for (int i = 0; i < elements.length; i++) {
                text.append(i == 0 ? "" : ",").append(arrayElement(elements[i]));
            }
            return text.append('}').toString();
        }
        if (value instanceof java.time.OffsetDateTime zoned) {
            return zoned.toInstant();
        }
        return value;
    }

    private static String arrayElement(Object element) {
        if (element == null) {
            return "NULL";
        }
        String text = element.toString();
        return text.isEmpty() || text.matches(".*[{},\"\\\\\\s].*") || text.equalsIgnoreCase("null")
                ? "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
                : text;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        // H2 appends "; SQL statement:" and its own error code.
        int statement = line.indexOf("; SQL statement:");
        return (statement < 0 ? line : line.substring(0, statement)).trim();
    }
}
