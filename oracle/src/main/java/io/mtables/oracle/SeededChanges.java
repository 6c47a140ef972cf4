package io.mtables.oracle;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A workload of single changes drawn from a seeded random source: each step commits one transaction
 * of 1-3 changes, or, one step in twenty, a burst of 100-300.
 */
abstract class SeededChanges implements Workload {

    protected final Random random;

    SeededChanges(Random random) {
        this.random = random;
    }

    /** One insert, update or delete. */
    protected abstract void change(Connection postgres) throws SQLException;

    @Override
    public final int step(Connection postgres) throws SQLException {
        int changes = random.nextInt(20) == 0 ? 100 + random.nextInt(200) : 1 + random.nextInt(3);
        postgres.setAutoCommit(false);
        try {
            for (int i = 0; i < changes; i++) {
                change(postgres);
            }
            postgres.commit();
        } catch (SQLException e) {
            postgres.rollback();
            throw e;
        } finally {
            postgres.setAutoCommit(true);
        }
        return changes;
    }

    /** The ids of a table's rows, in order: what a workload may change or delete. */
    static List<Long> ids(Connection postgres, String table) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Statement statement = postgres.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    /** The id after the largest of {@code ids}, 1 for none. */
    static long nextId(List<Long> ids) {
        return ids.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
    }

    protected static void update(Connection postgres, String sql, Object... values)
            throws SQLException {
        try (PreparedStatement statement = postgres.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        }
    }
}
