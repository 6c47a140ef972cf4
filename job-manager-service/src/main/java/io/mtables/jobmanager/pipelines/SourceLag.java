package io.mtables.jobmanager.pipelines;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * How far behind its sources a streaming job was, sampled at each look, so that a snapshot's data
 * timestamp can be its checkpoint's trigger time minus how far behind the sources were then. A
 * checkpoint's trigger time alone says "every change before it was read", which holds only for
 * sources that had nothing left to read; a job catching up through a backlog would look fresh.
 */
final class SourceLag {

    /** Samples older than this are of no checkpoint still to be reported. */
    static final Duration KEPT = Duration.ofMinutes(5);

    private record Sample(Instant at, long behindMillis) {}

    private final Deque<Sample> samples = new ArrayDeque<>();

    /**
     * Records a look at the sources.
     *
     * @param behindMillis how far behind in time the sources with records left were (0: none had
     *     any; negative: they could not say)
     */
    void sampled(Instant at, long behindMillis) {
        samples.addLast(new Sample(at, behindMillis));
        while (samples.size() > 1 && samples.peekFirst().at().isBefore(at.minus(KEPT))) {
            samples.removeFirst();
        }
    }

    /**
     * The time up to which a checkpoint triggered at {@code triggered} holds every change: the
     * trigger time, less how far behind the sources were at the last look before it (else the first
     * after: while a job catches up it only gets closer, so an earlier look is the safer one). The
     * trigger time itself when no look said the sources were behind.
     */
    Instant dataTimestamp(Instant triggered) {
        Sample chosen = null;
        for (Sample sample : samples) {
            if (sample.at().isAfter(triggered)) {
                if (chosen == null) {
                    chosen = sample;
                }
                break;
            }
            chosen = sample;
        }
        return chosen == null || chosen.behindMillis() <= 0
                ? triggered
                : triggered.minusMillis(chosen.behindMillis());
    }

    /** No look at the job's sources has answered yet. */
    boolean isEmpty() {
        return samples.isEmpty();
    }

    void clear() {
        samples.clear();
    }
}
