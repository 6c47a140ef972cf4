package io.mtables.ddl.wire;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;

/** What the door answers for one statement, before it is put into the protocol's messages. */
sealed interface Reply {

    /** A query's rows; {@code notices} go out before them. */
    record Rows(List<ResultColumn> columns, List<List<Object>> rows, List<String> notices)
            implements Reply {}

    /**
     * A statement that returns no rows, and its command tag ({@code CREATE MATERIALIZED TABLE}).
     */
    record Done(String tag, List<String> notices) implements Reply {}

    /**
     * A refusal: {@code position} is the 0-based offset in the statement's text where the problem
     * is, or -1 when it has no place.
     */
    record Failed(String sqlState, String message, String detail, String hint, int position)
            implements Reply {

        static Failed of(String sqlState, String message) {
            return new Failed(sqlState, message, null, null, -1);
        }
    }
}
