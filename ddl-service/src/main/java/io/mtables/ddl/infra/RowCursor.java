package io.mtables.ddl.infra;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;

/**
 * The rows of a read, pulled one at a time: only the batch being decoded is held, whatever the
 * table's size. Closed by whoever opened it, at the end or when the reader stops early.
 */
public interface RowCursor extends AutoCloseable {

    /** The answer's columns, as the query's names and types. */
    List<ResultColumn> columns();

    /** Whether a next row comes (read ahead; {@link #position()} stays before it). */
    boolean hasNext();

    /**
     * The next row, or null after the last. A read that fails part way (its files removed under it)
     * throws an IllegalStateException: the rows already returned stand, the rest do not come.
     */
    List<Object> next();

    /** Where the next row is: a read of the same statement resumes there ({@link PlainScan}). */
    ScanPosition position();

    /**
     * Done with this page: the cursor may be kept open for the next page of the same statement by
     * the same caller, which then goes on from here; closed where it is not kept.
     */
    default void park() {
        close();
    }

    @Override
    void close();
}
