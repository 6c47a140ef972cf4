package io.mtables.ddl.wire;

import io.mtables.ddl.infra.RowCursor;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;

/** What the door answers for one statement, before it is put into the protocol's messages. */
sealed interface Reply {

    /**
     * A query's rows, held ({@code rows}) or pulled from {@code cursor} as they go out (then {@code
     * rows} is empty); {@code notices} go out before them.
     */
    record Rows(
            List<ResultColumn> columns,
            List<List<Object>> rows,
            List<String> notices,
            RowCursor cursor)
            implements Reply {

        Rows(List<ResultColumn> columns, List<List<Object>> rows, List<String> notices) {
            this(columns, rows, notices, null);
        }

        /** Lets go of the cursor, if any (the rows not sent are not read). */
        void release() {
            if (cursor != null) {
                cursor.close();
            }
        }
    }

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
