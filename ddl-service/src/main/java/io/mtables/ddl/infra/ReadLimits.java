package io.mtables.ddl.infra;

import java.util.Collection;

/**
 * The most one read holds at once (mt.ddl.read-max-rows, mt.ddl.read-max-bytes): the rows it reads
 * from a table's snapshot to compute on, and the rows of its answer. Bytes are counted as the
 * answer's text would take: each string's characters, 16 for any other value, and 4 per value (its
 * length on the wire), so a user can tell from a row what a page of them weighs.
 */
public record ReadLimits(int maxRows, long maxBytes) {

    /** No limit: for reads that hold little by their nature (the catalog's own tables). */
    public static final ReadLimits NONE = new ReadLimits(Integer.MAX_VALUE, Long.MAX_VALUE);

    /** Bytes counted for a value that is not text (a number, a date, a boolean). */
    static final int OTHER_VALUE_BYTES = 16;

    /** Bytes counted per value, present or null: PostgreSQL's length word before each value. */
    static final int PER_VALUE_BYTES = 4;

    /** A count of one read's rows and bytes against these limits. */
    public Tally tally() {
        return new Tally(this);
    }

    /** The bytes {@code value} counts for. */
    static long bytesOf(Object value) {
        if (value == null) {
            return PER_VALUE_BYTES;
        }
        if (value instanceof CharSequence text) {
            return PER_VALUE_BYTES + text.length();
        }
        if (value instanceof byte[] bytes) {
            return PER_VALUE_BYTES + bytes.length;
        }
        if (value instanceof Collection<?> values) {
            long sum = PER_VALUE_BYTES;
            for (Object element : values) {
                sum += bytesOf(element);
            }
            return sum;
        }
        if (value instanceof Object[] values) {
            long sum = PER_VALUE_BYTES;
            for (Object element : values) {
                sum += bytesOf(element);
            }
            return sum;
        }
        return PER_VALUE_BYTES + OTHER_VALUE_BYTES;
    }

    /** One read's rows and bytes so far. */
    public static final class Tally {
        private final ReadLimits limits;
        private int rows;
        private long bytes;

        private Tally(ReadLimits limits) {
            this.limits = limits;
        }

        /** Whether one more row would be past the rows allowed (ask before reading it). */
        public boolean full() {
            return rows >= limits.maxRows();
        }

        /** Counts a row of {@code values}; false when the bytes held are now past the most. */
        public boolean add(Iterable<?> values) {
            rows++;
            for (Object value : values) {
                bytes += bytesOf(value);
            }
            return bytes <= limits.maxBytes();
        }

        /** Counts a row of {@code values}; false when the bytes held are now past the most. */
        public boolean add(Object[] values) {
            rows++;
            for (Object value : values) {
                bytes += bytesOf(value);
            }
            return bytes <= limits.maxBytes();
        }

        public long bytes() {
            return bytes;
        }
    }
}
