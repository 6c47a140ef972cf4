package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;

/**
 * A join job of {@link ThroughputBench} caught up on the pre-filled topics: its rate, its table
 * compared with the expected join, and its checkpoints.
 */
final class CaughtUp {

    private static final Duration LIMIT = Duration.ofMinutes(10);

    private CaughtUp() {}

    /** A job's rate (events a second), when it caught up, and whether its table is right. */
    record Result(double rate, long caughtUpAt, boolean same, String verdict) {}

    /**
     * Waits until the job's table holds the marker row, then compares the table with the expected
     * join; prints both and the job's checkpoints.
     */
    static Result await(
            String what,
            FileStoreTable table,
            JsonNode job,
            JoinChanges.Written written,
            int flinkPort)
            throws Exception {
        long startedAt = job.path("start-time").asLong();
        Snapshot snapshot = Warehouse.awaitRow(table, "domain_id", written.markerDomainId(), LIMIT);
        double took = (snapshot.timeMillis() - startedAt) / 1000.0;
        double rate = written.events() / took;
        RowDigest digest = Warehouse.digest(table);
        boolean same = digest.sameAs(written.expected());
        String verdict =
                same
                        ? "same as expected, " + digest
                        : "DIFFERS: " + digest + " expected " + written.expected();
        System.out.printf(
                "%s: caught up in %.1f s from job start (snapshot %d), %,.0f events/s; table %s%n",
                what, took, snapshot.id(), rate, verdict);
        System.out.println("  " + checkpoints(flinkPort, job.path("jid").asText()));
        return new Result(rate, snapshot.timeMillis(), same, verdict);
    }

    /** The median rate. */
    static double median(List<Result> results) {
        double[] rates = results.stream().mapToDouble(Result::rate).sorted().toArray();
        int middle = rates.length / 2;
        return rates.length % 2 == 1 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2;
    }

    /** Each rate, in the order run. */
    static String rates(List<Result> results) {
        return results.stream()
                .map(result -> String.format("%,.0f", result.rate()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /**
     * The job's checkpoints so far, from Flink's REST API: how many, how long each took from
     * trigger to acknowledged, and the state each wrote (what a checkpoint interval costs); and
     * what they mean for a reader, who sees what the newest completed checkpoint committed: its
     * data is at worst one interval and the slowest checkpoint old (the commit's own time left
     * out).
     */
    private static String checkpoints(int flinkPort, String jobId) throws Exception {
        JsonNode stats = FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/checkpoints");
        long interval =
                FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/checkpoints/config")
                        .path("interval")
                        .asLong();
        JsonNode duration = stats.path("summary").path("end_to_end_duration");
        JsonNode size = stats.path("summary").path("checkpointed_size");
        return String.format(
                "checkpoints: every %d ms, %d completed, end to end p50 %d ms, max %d ms;"
                        + " checkpointed size p50 %,d bytes, max %,d; a reader's worst lag"
                        + " about %,d ms (the interval and the slowest checkpoint)",
                interval,
                stats.path("counts").path("completed").asLong(),
                duration.path("p50").asLong(),
                duration.path("max").asLong(),
                size.path("p50").asLong(),
                size.path("max").asLong(),
                interval + duration.path("max").asLong());
    }
}
