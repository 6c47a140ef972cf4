package io.mtables.jobmanager;

import io.mtables.jobmanager.jobs.Locations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A reader of a table by its name, as any Paimon reader would, every {@code everyMillis}: what a
 * user sees while the job manager changes the table. Reads that fail are counted apart (the name
 * may name no table for the moment between a switch-over's two renames), and so are reads during
 * which another table took the name ({@link PaimonRows#readUnchanged}).
 */
final class TableReader {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<List<String>> seen = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    private final Locations locations;
    private final String table;

    TableReader(Locations locations, String table, long everyMillis) {
        this.locations = locations;
        this.table = table;
        timer.scheduleWithFixedDelay(this::read, 0, everyMillis, TimeUnit.MILLISECONDS);
    }

    private void read() {
        try {
            Optional<List<String>> read = PaimonRows.readUnchanged(locations.warehouse(), table);
            if (read.isEmpty()) {
                synchronized (seen) {
                    failures.add("another table took the name during the read");
                }
                return;
            }
            List<String> rows = read.get();
            synchronized (seen) {
                if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(rows)) {
                    seen.add(rows);
                }
            }
        } catch (Exception e) {
            synchronized (seen) {
                failures.add(String.valueOf(e.getMessage()));
            }
        }
    }

    /**
     * Stops reading, with one last read (what the caller last saw is among the answers); each
     * answer read, in order, repeats of the one before left out.
     */
    List<List<String>> stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        read();
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** The reads that failed, with their messages. */
    List<String> failures() {
        synchronized (seen) {
            return List.copyOf(failures);
        }
    }
}
