package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Waits for a batch job the job manager cannot go on without (a restore's rewrite, a switch-over's
 * bridge) by its status, asked every {@link #INTERVAL}: Flink's own wait for a job's result asks
 * ever less often (up to every 2 s), and its REST client reads a failed job's cause with the system
 * class loader, which in the packaged service does not see Flink's classes: it then asks again
 * every 3 s until the wait times out (seen with a rewrite that failed). The cause is read as text
 * from Flink's REST API instead.
 */
final class BatchJobWaits {

    static final Duration INTERVAL = Duration.ofMillis(100);

    private BatchJobWaits() {}

    /**
     * Returns once {@code job} finished; one that fails, is cancelled or takes longer than {@code
     * timeout} is cancelled and thrown.
     *
     * @param what the job, in words, for the failure's message
     * @throws IllegalStateException when the job did not finish
     */
    static void awaitOrCancel(JobClient job, FlinkTarget target, Duration timeout, String what) {
        String id = job.getJobID().toHexString();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            JobStatus status;
            while (!(status = job.getJobStatus().get()).isGloballyTerminalState()) {
                if (System.nanoTime() > deadline) {
                    job.cancel();
                    throw new IllegalStateException(
                            what + " (job " + id + ") did not finish within " + timeout);
                }
                Thread.sleep(INTERVAL.toMillis());
            }
            if (status != JobStatus.FINISHED) {
                throw new IllegalStateException(
                        what
                                + " (job "
                                + id
                                + ") ended "
                                + status
                                + ": "
                                + target.failureCause(id).orElse("no cause recorded"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            job.cancel();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            job.cancel();
            throw new IllegalStateException(
                    "cannot tell whether " + what + " (job " + id + ") ended", e);
        }
    }
}
