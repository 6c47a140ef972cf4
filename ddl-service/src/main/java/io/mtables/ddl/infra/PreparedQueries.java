package io.mtables.ddl.infra;

import io.mtables.ddl.domain.StatementException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Queries over a fixed set of in-memory tables, each shape ({@link QueryShape}) parsed, planned and
 * compiled by Calcite once and then run with its values as parameters. Planning and compiling a
 * query to Java is most of an information_schema query's time (about 180 ms on 2 cores, the rows
 * being a few); a prepared one runs in milliseconds. A query that cannot run so (its shape does not
 * prepare, or a parameter does not convert) runs as a one-off ({@link InMemorySql}), which also
 * words its errors.
 */
final class PreparedQueries {

    private static final Logger LOG = Logger.getLogger(PreparedQueries.class);

    /** How many shapes stay prepared; the least recently used goes first. */
    static final int KEPT = 64;

    private final List<? extends InMemorySql.Source> shapes;
    private final Map<List<String>, InMemorySql.Source> current = new HashMap<>();
    private Connection connection;
    private final Map<String, PreparedStatement> prepared =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                    if (size() <= KEPT) {
                        return false;
                    }
                    close(eldest.getValue());
                    return true;
                }
            };

    /**
     * @param shapes the tables' paths and columns (their rows are not read)
     */
    PreparedQueries(List<? extends InMemorySql.Source> shapes) {
        this.shapes = List.copyOf(shapes);
    }

    /**
     * Runs {@code query} over {@code tables} (the same paths and columns as the shapes, current
     * rows).
     */
    synchronized InMemorySql.QueryRows query(
            String query, List<? extends InMemorySql.Source> tables, String what, String allowed) {
        return query(query, tables, what, allowed, ReadLimits.NONE);
    }

    /** Runs {@code query}, refused past {@code limits} of answer. */
    synchronized InMemorySql.QueryRows query(
            String query,
            List<? extends InMemorySql.Source> tables,
            String what,
            String allowed,
            ReadLimits limits) {
        Optional<QueryShape> shape = QueryShape.of(query);
        if (shape.isPresent()) {
            tables.forEach(table -> current.put(table.path(), table));
            try {
                PreparedStatement statement = statement(shape.get().text());
                List<Object> parameters = shape.get().parameters();
                if (takes(statement, parameters)) {
                    for (int i = 0; i < parameters.size(); i++) {
                        statement.setObject(i + 1, parameters.get(i));
                    }
                    try (ResultSet result = statement.executeQuery()) {
                        return InMemorySql.read(result, limits);
                    }
                }
            } catch (StatementException tooLarge) {
                throw tooLarge; // a one-off would answer as many rows
            } catch (SQLException | RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("the query was stopped", e);
                }
                LOG.debugf("running %s as a one-off: %s", query, InMemorySql.rootMessage(e));
            } finally {
                current.clear();
            }
        }
        return InMemorySql.query(query, tables, what, allowed, limits);
    }

    /**
     * Whether each value is of the kind its parameter's type holds as the literal would be read:
     * text for a character column, a whole number for a numeric one, a fraction for a decimal or
     * floating one. Else ({@code last_refresh > '2026-12-01'}, {@code n > 1.5} over a BIGINT) the
     * literal's own reading (its conversion, or its error) is kept by running the query as a
     * one-off.
     */
    private static boolean takes(PreparedStatement statement, List<Object> values)
            throws SQLException {
        var types = statement.getParameterMetaData();
        for (int i = 0; i < values.size(); i++) {
            int type = types.getParameterType(i + 1);
            boolean text = type == Types.CHAR || type == Types.VARCHAR;
            boolean fraction =
                    type == Types.DECIMAL
                            || type == Types.DOUBLE
                            || type == Types.FLOAT
                            || type == Types.REAL;
            boolean whole =
                    fraction
                            || type == Types.BIGINT
                            || type == Types.INTEGER
                            || type == Types.SMALLINT
                            || type == Types.TINYINT;
            Object value = values.get(i);
            if (value instanceof String ? !text : value instanceof Long ? !whole : !fraction) {
                return false;
            }
        }
        return true;
    }

    private PreparedStatement statement(String text) throws SQLException {
        PreparedStatement statement = prepared.get(text);
        if (statement == null) {
            statement = connection().prepareStatement(text);
            prepared.put(text, statement);
        }
        return statement;
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Connection opened = InMemorySql.connect();
            for (InMemorySql.Source shape : shapes) {
                InMemorySql.add(opened, shape, () -> current.get(shape.path()));
            }
            connection = opened;
        }
        return connection;
    }

    private static void close(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException e) {
            // a statement of an in-memory connection holds nothing outside this JVM
        }
    }

    /** Closes the prepared statements and their connection (a shape asked for again reopens it). */
    synchronized void close() {
        prepared.values().forEach(PreparedQueries::close);
        prepared.clear();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // an in-memory connection holds nothing outside this JVM
            }
            connection = null;
        }
    }

    /** For tests: the shapes prepared now. */
    synchronized List<String> preparedShapes() {
        return new ArrayList<>(prepared.keySet());
    }
}
