package io.mtables.ddl.history;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the history within its bounds: at most {@code maxPerTable} rows per table (the oldest
 * recorded go first) and none older than {@code maxAge}. It knows every recorded row's key, and
 * says which rows to delete.
 */
final class HistoryBounds {

    /** A row to delete. */
    record Key(String table, String eventId) {}

    private final int maxPerTable;
    private final Duration maxAge;

    /** Per table, event id to finish time (ms), in the order recorded. */
    private final Map<String, LinkedHashMap<String, Long>> recorded = new HashMap<>();

    HistoryBounds(int maxPerTable, Duration maxAge) {
        this.maxPerTable = maxPerTable;
        this.maxAge = maxAge;
    }

    /** Whether the row is recorded already (its event was read before). */
    boolean has(String table, String eventId) {
        var rows = recorded.get(table);
        return rows != null && rows.containsKey(eventId);
    }

    /** Takes in a recorded row; the rows that now exceed the table's count, to delete. */
    List<Key> add(String table, String eventId, long finishedAtMillis) {
        var rows = recorded.computeIfAbsent(table, t -> new LinkedHashMap<>());
        rows.put(eventId, finishedAtMillis);
        List<Key> over = new ArrayList<>();
        for (Iterator<String> oldest = rows.keySet().iterator();
                rows.size() > maxPerTable && oldest.hasNext(); ) {
            over.add(new Key(table, oldest.next()));
            oldest.remove();
        }
        return over;
    }

    /** The rows older than the age bound at {@code now}, forgotten here and to delete. */
    List<Key> expired(Instant now) {
        long cutoff = now.minus(maxAge).toEpochMilli();
        List<Key> expired = new ArrayList<>();
        for (var table = recorded.entrySet().iterator(); table.hasNext(); ) {
            var entry = table.next();
            entry.getValue()
                    .entrySet()
                    .removeIf(
                            row -> {
                                if (row.getValue() < cutoff) {
                                    expired.add(new Key(entry.getKey(), row.getKey()));
                                    return true;
                                }
                                return false;
                            });
            if (entry.getValue().isEmpty()) {
                table.remove();
            }
        }
        return expired;
    }

    /** Rows recorded, all tables. */
    int size() {
        return recorded.values().stream().mapToInt(Map::size).sum();
    }
}
