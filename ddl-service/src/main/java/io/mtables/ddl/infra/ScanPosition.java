package io.mtables.ddl.infra;

/**
 * A place in a read of one snapshot of a table, from which a later read of the same statement goes
 * on (a page of a REST answer): the table (its uuid, a new one after a switch-over), its snapshot,
 * the split being read and the rows of it already read, and the answer's rows already returned (for
 * its LIMIT).
 */
public record ScanPosition(String uuid, long snapshot, int split, long rowInSplit, long returned) {

    /** The start of a read: the latest snapshot of the table under its name. */
    public static final ScanPosition START = new ScanPosition(null, -1, 0, 0, 0);

    public boolean isStart() {
        return uuid == null;
    }
}
