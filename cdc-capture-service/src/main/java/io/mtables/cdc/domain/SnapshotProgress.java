package io.mtables.cdc.domain;

import java.util.Map;

/**
 * Where a change event stands in Debezium's initial (or blocking) snapshot, read from its source
 * offset as the PostgreSQL connector writes it: {@code snapshot} while one runs, {@code
 * last_snapshot_record} on its last row, {@code snapshot_completed} once it is over.
 */
public final class SnapshotProgress {

    private SnapshotProgress() {}

    /**
     * Whether more rows of the same snapshot follow: a restart there reads the whole snapshot again
     * (PostgreSQL's connector cannot resume one), so its rows are published only all together.
     */
    public static boolean unfinished(Map<String, ?> sourceOffset) {
        return sourceOffset != null
                && sourceOffset.get("snapshot") != null
                && !isTrue(sourceOffset.get("last_snapshot_record"))
                && !isTrue(sourceOffset.get("snapshot_completed"));
    }

    /** Whether the event is a row of a snapshot (its last row included). */
    public static boolean inSnapshot(Map<String, ?> sourceOffset) {
        return sourceOffset != null
                && sourceOffset.get("snapshot") != null
                && !"false".equals(String.valueOf(sourceOffset.get("snapshot")))
                && !isTrue(sourceOffset.get("snapshot_completed"));
    }

    private static boolean isTrue(Object flag) {
        return Boolean.TRUE.equals(flag) || "true".equals(flag);
    }
}
