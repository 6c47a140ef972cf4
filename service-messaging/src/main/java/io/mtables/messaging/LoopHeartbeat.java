package io.mtables.messaging;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Whether a scheduled loop still goes round. A loop that catches its rounds' exceptions can still
 * stop for good: an {@link Error} escapes and its executor never runs it again, or a call that
 * never returns (a hung connection) holds its thread. Neither says anything. Each round that ends
 * beats; once no round has ended for the loop's patience, {@link #problem()} says so, and the
 * service's readiness takes it (so that it is seen, and a restart brings the loop back).
 */
public final class LoopHeartbeat {

    private final String loop;
    private final Duration patience;
    private final LongSupplier nanoTime;
    private volatile long lastBeat;
    private volatile boolean started;

    /**
     * @param loop what the loop does, for the problem's text ("the poll of the jobs")
     * @param patience how long a round may take: longer than the longest round that is working
     */
    public LoopHeartbeat(String loop, Duration patience) {
        this(loop, patience, System::nanoTime);
    }

    LoopHeartbeat(String loop, Duration patience, LongSupplier nanoTime) {
        this.loop = loop;
        this.patience = patience;
        this.nanoTime = nanoTime;
    }

    /** The loop is scheduled: from now on its rounds are expected. */
    public void started() {
        lastBeat = nanoTime.getAsLong();
        started = true;
    }

    /** A round ended (whether its work succeeded or failed and was handled). */
    public void beat() {
        lastBeat = nanoTime.getAsLong();
    }

    /**
     * {@code round} run as one round of the loop: it beats when the round ends, so that what
     * escapes it (an Error, which ends the loop) leaves the heartbeat to stop.
     */
    public Runnable round(Runnable round) {
        return () -> {
            round.run();
            beat();
        };
    }

    /** Why the loop is not going round, or empty while it is (or before it started). */
    public Optional<String> problem() {
        if (!started) {
            return Optional.empty();
        }
        long silent = nanoTime.getAsLong() - lastBeat;
        if (silent <= patience.toNanos()) {
            return Optional.empty();
        }
        return Optional.of(
                loop
                        + " has not ended a round for "
                        + Duration.ofNanos(silent).toSeconds()
                        + " s (its thread died or hangs; the log has what it last did): restart"
                        + " the service");
    }
}
