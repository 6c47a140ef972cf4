package io.mtables.ddl.infra;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.RowType;

/**
 * A {@link PlainScan} of one snapshot of a Paimon table, split after split: the columns it shows
 * and those its WHERE tests are read (Paimon's projection), files and row groups that statistics
 * rule out are skipped (its filter), each row is tested, OFFSET skipped and LIMIT stops the read.
 * Values are those the in-process query gives for the same rows ({@link InMemorySql}).
 */
final class PaimonRowCursor implements RowCursor {

    private final List<ResultColumn> columns;
    private final List<InternalRow.FieldGetter> getters = new ArrayList<>();
    private final List<DataType> types = new ArrayList<>();
    private final Predicate rowTest;
    private final ReadBuilder read;
    private final List<Split> splits;
    private final String uuid;
    private final long snapshot;
    private final long offset;
    private final long fetch;

    private int split;
    private long rowInSplit;
    private long returned;
    private long skipped;
    private RecordReader<InternalRow> reader;
    private RecordReader.RecordIterator<InternalRow> batch;
    private boolean closed;
    private List<Object> ahead;
    private ScanPosition beforeAhead;

    /**
     * @param table the table pinned at {@code snapshot}
     * @param from where to start: the first split's first row, or where an earlier page stopped
     */
    PaimonRowCursor(
            Table table, long snapshot, PlainScan scan, PushedDown.Filter filter, ScanPosition from)
            throws IOException {
        RowType rowType = table.rowType();
        Set<String> read = new LinkedHashSet<>(scan.columns());
        scan.pushed().conditions().forEach(condition -> read.add(condition.column()));
        List<String> names = new ArrayList<>(read);
        int[] projection = names.stream().mapToInt(rowType::getFieldIndex).toArray();
        RowType projected = rowType.project(projection);
        this.columns = new ArrayList<>();
        for (int i = 0; i < scan.columns().size(); i++) {
            int index = names.indexOf(scan.columns().get(i));
            DataType type = projected.getTypeAt(index);
            columns.add(new ResultColumn(scan.labels().get(i), typeName(type)));
            types.add(type);
            getters.add(InternalRow.createFieldGetter(type, index));
        }
        // The same WHERE over the projected row, to test each row read.
        this.rowTest = scan.pushed().filter(projected).predicate().orElse(null);
        this.read = table.newReadBuilder().withProjection(projection);
        filter.predicate().ifPresent(this.read::withFilter);
        // No snapshot yet: no rows, even if one is committed while this plans (an unpinned scan
        // would read it, and a page of it could not name its snapshot).
        this.splits = snapshot < 0 ? List.of() : this.read.newScan().plan().splits();
        this.uuid = table.uuid();
        this.snapshot = snapshot;
        this.offset = scan.offset();
        this.fetch = scan.fetch();
        this.split = from.split();
        this.returned = from.returned();
        this.skipped = from.isStart() ? 0 : offset; // the OFFSET went by on an earlier page
        if (from.rowInSplit() > 0) {
            try {
                open();
                for (long i = 0; i < from.rowInSplit(); i++) {
                    if (nextRead() == null) {
                        break;
                    }
                }
            } catch (RuntimeException | IOException failed) {
                closeReader(); // no cursor comes of it, so nobody else would close its reader
                throw failed;
            }
        }
    }

    /** The column type names of {@code table}'s columns, as the query's. */
    static String typeName(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> "BOOLEAN";
            case TINYINT, SMALLINT, INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case FLOAT, DOUBLE -> "DOUBLE";
            case DECIMAL -> "DECIMAL";
            case DATE -> "DATE";
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "TIMESTAMP";
            default -> "VARCHAR";
        };
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean hasNext() {
        if (ahead == null) {
            beforeAhead = position();
            ahead = fetch();
        }
        return ahead != null;
    }

    @Override
    public List<Object> next() {
        if (ahead != null) {
            List<Object> row = ahead;
            ahead = null;
            return row;
        }
        return fetch();
    }

    private List<Object> fetch() {
        if (closed || (fetch >= 0 && returned >= fetch)) {
            return null;
        }
        InternalRow row;
        while ((row = nextRead()) != null) {
            if (rowTest != null && !rowTest.test(row)) {
                continue;
            }
            if (skipped < offset) {
                skipped++;
                continue;
            }
            returned++;
            List<Object> values = new ArrayList<>(getters.size());
            for (int i = 0; i < getters.size(); i++) {
                values.add(value(getters.get(i).getFieldOrNull(row), types.get(i)));
            }
            return values;
        }
        return null;
    }

    @Override
    public ScanPosition position() {
        if (ahead != null) {
            return beforeAhead;
        }
        return new ScanPosition(uuid, snapshot, split, rowInSplit, returned);
    }

    /**
     * The next row of the snapshot, whether or not the WHERE keeps it; null after the last. A
     * reader interrupted (its read's timeout) stops here, at the next row.
     */
    private InternalRow nextRead() {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("the read was stopped (mt.ddl.read-timeout)");
        }
        try {
            while (split < splits.size()) {
                if (reader == null) {
                    open();
                }
                if (batch == null) {
                    batch = reader.readBatch();
                    if (batch == null) {
                        closeReader();
                        split++;
                        rowInSplit = 0;
                        continue;
                    }
                }
                InternalRow row = batch.next();
                if (row != null) {
                    rowInSplit++;
                    return row;
                }
                batch.releaseBatch();
                batch = null;
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void open() throws IOException {
        if (split < splits.size()) {
            reader = read.newRead().createReader(splits.get(split));
        }
    }

    private void closeReader() throws IOException {
        if (batch != null) {
            batch.releaseBatch();
            batch = null;
        }
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            closeReader();
        } catch (IOException e) {
            // nothing more is read from it either way
        }
    }

    /** A value as the in-process query answers it (dates and timestamps as ISO text). */
    private static Object value(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case TINYINT, SMALLINT, INTEGER -> ((Number) value).intValue();
            case BIGINT -> ((Number) value).longValue();
            case FLOAT, DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> ((Decimal) value).toBigDecimal();
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    Instant.ofEpochMilli(((Timestamp) value).getMillisecond()).toString();
            case BOOLEAN -> value;
            default -> value instanceof BinaryString text ? text.toString() : String.valueOf(value);
        };
    }

    /** Paimon's option that pins a read to one snapshot. */
    static Table pinned(Table table, long snapshot) {
        return table.copy(Map.of("scan.snapshot-id", String.valueOf(snapshot)));
    }
}
