package io.mtables.ddl.statements;

import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.schemas.access.AccessChanged;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import io.mtables.schemas.lifecycle.RefreshRequested;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** What a statement comes to, before anything is written. */
public sealed interface Outcome {

    /**
     * A new version of a table, to be written to the definition log.
     *
     * @param definition the new version
     * @param message what happened, for the result
     * @param onCommitted brings Flink's catalog mirror in line once the version is durable
     */
    record Defined(TableDefinition definition, String message, Runnable onCommitted)
            implements Outcome {}

    /**
     * A dropped table, to be written to the definition log.
     *
     * @param dropped the drop event
     * @param message what happened
     */
    record Dropped(TableDropped dropped, String message) implements Outcome {}

    /**
     * A manual refresh, to be written to the lifecycle command topic.
     *
     * @param request the command
     * @param message what happened
     */
    record RefreshRequest(RefreshRequested request, String message) implements Outcome {}

    /**
     * A change of roles or grants, to be written to the access log.
     *
     * @param change the event
     * @param message what happened
     */
    record AccessChange(AccessChanged change, String message) implements Outcome {}

    /**
     * A query answer.
     *
     * @param columns the columns
     * @param rows the rows
     */
    record Rows(List<ResultColumn> columns, List<List<Object>> rows) implements Outcome {}

    /**
     * A query whose rows are read after the catalog's turn ({@link QueryRunner}): reading the
     * warehouse takes as long as the table is large, and no change waits for it.
     *
     * @param rows reads the rows; a refusal is a {@code StatementException}
     * @param cursor opens a cursor over the rows from a place in them, for a door that streams
     *     them; null, or empty once opened, when only {@code rows} can read them
     */
    record Read(Callable<Rows> rows, Function<ScanPosition, Optional<RowCursor>> cursor)
            implements Outcome {

        Read(Callable<Rows> rows) {
            this(rows, null);
        }
    }

    /**
     * Nothing to change (IF EXISTS on a missing table, the same CREATE OR ALTER twice).
     *
     * @param table the table named, or null
     * @param message why nothing changed
     */
    record Unchanged(String table, String message) implements Outcome {}
}
