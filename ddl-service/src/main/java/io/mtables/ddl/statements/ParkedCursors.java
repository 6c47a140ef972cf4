package io.mtables.ddl.statements;

import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Cursors kept open between a REST page and the next, so that the next page goes on where the last
 * stopped instead of opening the read again and skipping to its place (which, in a split of
 * millions of rows, costs every page more than the last). Kept for one caller and one statement at
 * one position; the fewest at once, and not for long: a page not asked for in time is read by
 * opening the snapshot again, as on any other instance. Past the most, the caller holding the most
 * cursors loses its oldest: one caller paging many reads never evicts another's.
 */
final class ParkedCursors {

    /** Who may take a parked cursor: the same caller, the same statement, from the same place. */
    record Key(String principal, String statement, ScanPosition position) {}

    private record Parked(RowCursor cursor, long sinceNanos) {}

    private final int most;
    private final long keepNanos;
    private final LongSupplier nanoClock;
    private final LinkedHashMap<Key, Parked> parked = new LinkedHashMap<>();

    ParkedCursors(int most, Duration keep) {
        this(most, keep, System::nanoTime);
    }

    ParkedCursors(int most, Duration keep, LongSupplier nanoClock) {
        this.most = most;
        this.keepNanos = keep.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Keeps {@code cursor} for the page that starts at its position; the oldest go first. */
    synchronized void park(Key key, RowCursor cursor) {
        sweep();
        Parked replaced = parked.put(key, new Parked(cursor, nanoClock.getAsLong()));
        if (replaced != null && replaced.cursor() != cursor) {
            replaced.cursor().close();
        }
        while (parked.size() > most) {
            evictOldestOf(busiestCaller());
        }
    }

    /** The caller holding the most cursors (of equals, the first to hold that many). */
    private String busiestCaller() {
        Map<String, Integer> held = new HashMap<>();
        String busiest = null;
        for (Key key : parked.keySet()) {
            int count = held.merge(key.principal(), 1, Integer::sum);
            if (busiest == null || count > held.get(busiest)) {
                busiest = key.principal();
            }
        }
        return busiest;
    }

    private void evictOldestOf(String principal) {
        for (Iterator<Map.Entry<Key, Parked>> entries = parked.entrySet().iterator();
                entries.hasNext(); ) {
            Map.Entry<Key, Parked> entry = entries.next();
            if (entry.getKey().principal().equals(principal)) {
                entry.getValue().cursor().close();
                entries.remove();
                return;
            }
        }
    }

    /** The cursor kept for {@code key}, taken out, or null. */
    synchronized RowCursor take(Key key) {
        sweep();
        Parked kept = parked.remove(key);
        return kept == null ? null : kept.cursor();
    }

    /** Closes the cursors kept too long. */
    synchronized void sweep() {
        long now = nanoClock.getAsLong();
        for (Iterator<Map.Entry<Key, Parked>> entries = parked.entrySet().iterator();
                entries.hasNext(); ) {
            Parked kept = entries.next().getValue();
            if (now - kept.sinceNanos() > keepNanos) {
                kept.cursor().close();
                entries.remove();
            }
        }
    }

    synchronized int size() {
        return parked.size();
    }
}
