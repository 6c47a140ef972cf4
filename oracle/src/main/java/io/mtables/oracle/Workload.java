package io.mtables.oracle;

import java.sql.Connection;
import java.sql.SQLException;

/** A seeded stream of changes to an example's PostgreSQL tables. */
public interface Workload {

    /**
     * Runs one transaction of changes (sometimes a burst of hundreds) and commits it.
     *
     * @return the number of rows changed
     */
    int step(Connection postgres) throws SQLException;

    /**
     * After the last step: whatever the example needs for its results to be final (a window to
     * close, say).
     */
    default void finish(Connection postgres) throws SQLException {}
}
