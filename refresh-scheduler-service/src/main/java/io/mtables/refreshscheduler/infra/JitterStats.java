package io.mtables.refreshscheduler.infra;

import java.time.Duration;
import java.util.Arrays;

/**
 * How late scheduled ticks were written, over the last 10,000: p50, p99 and max, for readiness data
 * and logs.
 */
final class JitterStats {

    private final long[] millis = new long[10_000];
    private int count;
    private int next;

    synchronized void record(Duration late) {
        millis[next] = late.toMillis();
        next = (next + 1) % millis.length;
        count = Math.min(count + 1, millis.length);
    }

    synchronized String summary() {
        if (count == 0) {
            return "no scheduled tick yet";
        }
        long[] sorted = Arrays.copyOf(millis, count);
        Arrays.sort(sorted);
        return "tick jitter over the last "
                + count
                + ": p50 "
                + sorted[count / 2]
                + " ms, p99 "
                + sorted[Math.min(count - 1, count * 99 / 100)]
                + " ms, max "
                + sorted[count - 1]
                + " ms";
    }
}
