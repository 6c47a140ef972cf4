package io.mtables.jobmanager.infra;

/**
 * Whether the job manager can look at its jobs: after {@link #FAILURES_TO_REPORT} failed polls in a
 * row (Flink or the warehouse unreachable) readiness goes down with the last error, and comes back
 * with the first poll that works. A single failed poll is only retried (the next one is a second
 * away). Touched by the control thread, read by the readiness check.
 */
final class PollHealth {

    static final int FAILURES_TO_REPORT = 3;

    private int failuresInARow;
    private volatile String problem;

    void succeeded() {
        failuresInARow = 0;
        problem = null;
    }

    void failed(String error) {
        failuresInARow++;
        if (failuresInARow >= FAILURES_TO_REPORT) {
            problem =
                    "looking at the jobs failed "
                            + failuresInARow
                            + " times in a row; the last: "
                            + error;
        }
    }

    /** Why the job manager is not ready, or null when its polls work. */
    String problem() {
        return problem;
    }
}
