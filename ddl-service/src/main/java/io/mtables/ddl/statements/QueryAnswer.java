package io.mtables.ddl.statements;

import io.mtables.ddl.infra.RowCursor;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Instant;
import java.util.List;

/**
 * A statement's answer for a door that streams rows: a result, or, for a SELECT whose rows go
 * straight from the table to the answer, a cursor over them that the door pulls and closes.
 *
 * @param result the result; for a cursor, its columns with no rows (what metrics and the audit
 *     trail take)
 * @param cursor the rows, or null
 */
public record QueryAnswer(StatementResult result, RowCursor cursor) {

    public static QueryAnswer of(StatementResult result) {
        return new QueryAnswer(result, null);
    }

    static QueryAnswer streaming(String requestId, RowCursor cursor, Instant at, String principal) {
        return new QueryAnswer(
                StatementResult.rows(requestId, cursor.columns(), List.of(), at).by(principal),
                cursor);
    }
}
