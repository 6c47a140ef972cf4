package io.mtables.refreshscheduler.infra;

import io.mtables.schemas.tick.RefreshTick;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Ticks whose transaction failed (Kafka did not take it): they are written again, before the ticks
 * due after them, until a write works, so none is lost until the next start. After {@link
 * #FAILURES_TO_REPORT} failed writes in a row readiness goes down with the error. The ticks of
 * tables that moved to another scheduler are dropped: their new owner catches them up.
 */
final class UnwrittenTicks {

    static final int FAILURES_TO_REPORT = 3;

    private final List<RefreshTick> waiting = new ArrayList<>();
    private int failuresInARow;
    private volatile String problem;

    /** The ticks that wait, then {@code due}: what to write now. */
    synchronized List<RefreshTick> before(List<RefreshTick> due) {
        List<RefreshTick> all = new ArrayList<>(waiting);
        all.addAll(due);
        return all;
    }

    synchronized void written() {
        waiting.clear();
        failuresInARow = 0;
        problem = null;
    }

    /** {@code ticks} (those waiting included) could not be written: they wait for the next try. */
    synchronized void failed(List<RefreshTick> ticks, String error) {
        waiting.clear();
        waiting.addAll(ticks);
        failuresInARow++;
        if (failuresInARow >= FAILURES_TO_REPORT) {
            problem =
                    ticks.size()
                            + " tick(s) not written after "
                            + failuresInARow
                            + " tries in a row; the last error: "
                            + error;
        }
    }

    /** Drops the waiting ticks of the tables that match (they moved to another scheduler). */
    synchronized void release(Predicate<String> tables) {
        waiting.removeIf(tick -> tables.test(tick.table()));
    }

    /** Why the scheduler is not ready, or null. */
    String problem() {
        return problem;
    }
}
