package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.flink.ClusterCapacity;

/**
 * Whether a streaming job can start now. A streaming job holds its slots for as long as it runs, so
 * it starts only when the cluster has them free, beyond the slots kept for FULL refreshes (which
 * end and give theirs back: a cluster full of streaming jobs would otherwise leave every refresh
 * waiting in Flink). A job that cannot start is queued by the job manager instead of being
 * submitted: Flink would fail it for want of resources, again and again, and it would end
 * suspended.
 *
 * @param reservedForRefreshes slots streaming jobs leave free ({@code mt.jobs.refresh-slots})
 * @param slotsPerWaitingJob slots counted for each job Flink has yet to place (the configured
 *     parallelism)
 */
record SlotBudget(int reservedForRefreshes, int slotsPerWaitingJob) {

    /** The answer for one job: it may start, or why not. */
    record Admission(
            boolean admitted, String reason, int freeForStreaming, ClusterCapacity capacity) {}

    /**
     * @param needed the job's slots: its parallelism (a job's operators share its slots)
     */
    Admission admit(ClusterCapacity capacity, int needed) {
        int freeForStreaming =
                capacity.freeSlots()
                        - capacity.jobsWaitingForSlots() * slotsPerWaitingJob
                        - reservedForRefreshes;
        if (freeForStreaming >= needed) {
            return new Admission(true, null, freeForStreaming, capacity);
        }
        return new Admission(
                false, reason(capacity, needed, freeForStreaming), freeForStreaming, capacity);
    }

    private String reason(ClusterCapacity capacity, int slotsPerJob, int freeForStreaming) {
        if (capacity.taskManagers() == 0) {
            return "needs "
                    + slots(slotsPerJob)
                    + " and the cluster has no TaskManager; it starts when one registers";
        }
        StringBuilder reason =
                new StringBuilder(
                        "needs "
                                + slots(slotsPerJob)
                                + "; the cluster has "
                                + capacity.totalSlots()
                                + " in "
                                + capacity.taskManagers()
                                + " TaskManager"
                                + (capacity.taskManagers() == 1 ? "" : "s")
                                + ", "
                                + Math.max(freeForStreaming, 0)
                                + " free for streaming jobs");
        if (reservedForRefreshes > 0 || capacity.jobsWaitingForSlots() > 0) {
            reason.append(" (");
            if (reservedForRefreshes > 0) {
                reason.append(reservedForRefreshes).append(" kept for FULL refreshes");
            }
            if (capacity.jobsWaitingForSlots() > 0) {
                reason.append(reservedForRefreshes > 0 ? ", " : "")
                        .append(capacity.jobsWaitingForSlots())
                        .append(" job(s) being placed");
            }
            reason.append(")");
        }
        return reason.append(
                        "; it starts when slots free up: suspend or drop another table, or add a"
                                + " TaskManager")
                .toString();
    }

    private static String slots(int n) {
        return n + " task slot" + (n == 1 ? "" : "s");
    }
}
