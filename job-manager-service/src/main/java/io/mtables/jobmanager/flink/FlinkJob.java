package io.mtables.jobmanager.flink;

/**
 * A job as the cluster reports it.
 *
 * @param id Flink's job id (32 hex digits)
 * @param name the job's name; ours are {@code mt:<table>:v<version>[:refresh:<id>]}
 * @param state Flink's job status: CREATED, RUNNING, FAILING, FAILED, CANCELLING, CANCELED,
 *     FINISHED, RESTARTING, SUSPENDED, RECONCILING, INITIALIZING
 */
public record FlinkJob(String id, String name, String state) {

    /** Whether the job will not run again. */
    public boolean ended() {
        return state.equals("FAILED") || state.equals("CANCELED") || state.equals("FINISHED");
    }
}
