package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.pipelines.Pipeline.Status;

/**
 * A table's status, as DESCRIBE shows it, and what moves it: every change of a {@link Pipeline}'s
 * status is one of these events, and the status it leads to is decided here alone. The whole table,
 * state by event, is in DESIGN.md and in {@code TableLifecycleTest}.
 */
final class TableLifecycle {

    /** What happened to the table. */
    enum Event {
        /** Its streaming job was submitted: it runs once Flink says RUNNING. */
        JOB_SUBMITTED,
        /** Flink says its streaming job is RUNNING. */
        JOB_RUNNING,
        /** A streaming job found on the cluster at start is its job again. */
        JOB_REATTACHED,
        /** Its streaming job waits for free task slots. */
        WAITING_FOR_SLOTS,
        /** A FULL table's plan was applied: its refreshes run at their ticks. */
        FULL_PLAN_APPLIED,
        /** A FULL refresh wrote its snapshot (or found nothing to change). */
        REFRESH_SUCCEEDED,
        /** A refresh or a step of the plan failed. */
        FAILED,
        /** The planner's plan refuses the table: it does not run. */
        PLAN_REFUSED,
        /** Failures in a row reached {@code mt.jobs.max-consecutive-failures}. */
        TOO_MANY_FAILURES,
        /** A SUSPEND was carried out, or the previous run of the service left it suspended. */
        SUSPENDED,
        /** A RESUME was taken up, or the previous run of the service saw one. */
        RESUMED,
        /** A table it reads had its rows replaced: its job is stopped and its query read anew. */
        INPUT_REPLACED
    }

    private TableLifecycle() {}

    /** The status {@code event} leads to from {@code current}. */
    static Status next(Status current, Event event) {
        return switch (event) {
            case JOB_SUBMITTED, RESUMED -> Status.INITIALIZING;
            // Only a job that was starting: a table that is QUEUED, SUSPENDED or FAILED meanwhile
            // stays so until an event of its own.
            case JOB_RUNNING -> current == Status.INITIALIZING ? Status.ACTIVATED : current;
            case JOB_REATTACHED, FULL_PLAN_APPLIED, REFRESH_SUCCEEDED -> Status.ACTIVATED;
            case WAITING_FOR_SLOTS -> Status.QUEUED;
            // A suspended table that fails (its last refresh ending) stays suspended: RESUME, not
            // the failure, decides what runs next.
            case FAILED -> current == Status.SUSPENDED ? Status.SUSPENDED : Status.FAILED;
            case PLAN_REFUSED -> Status.FAILED;
            case TOO_MANY_FAILURES, SUSPENDED -> Status.SUSPENDED;
            // A queued start was from the old rows' state: it starts anew. Any other status stays.
            case INPUT_REPLACED -> current == Status.QUEUED ? Status.INITIALIZING : current;
        };
    }
}
