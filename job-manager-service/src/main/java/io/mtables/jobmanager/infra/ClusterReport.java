package io.mtables.jobmanager.infra;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.jobmanager.flink.ClusterCapacity;
import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.cluster.ClusterStatus;
import io.mtables.schemas.flink.JobNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The cluster as the active job manager sees it after a poll, every 5 s at most: its task slots as
 * gauges, and a {@code ClusterStatus} on {@code mt.cluster.status} whenever its slots, the queued
 * tables or our jobs change, and every {@link #REWRITE_AFTER} regardless (the console's cluster
 * page shows the latest, and its age). A look or a write that fails is tried again after the next
 * poll: nothing counts as written until it was.
 */
final class ClusterReport implements AutoCloseable {

    /** A report unchanged this long is written again, so its age says the job manager is there. */
    static final Duration REWRITE_AFTER = Duration.ofSeconds(30);

    /** How often the cluster is looked at: three REST calls, not worth every poll's second. */
    static final Duration LOOK_EVERY = Duration.ofSeconds(5);

    private final FlinkTarget flink;
    private final KafkaLog statusLog;
    private final int reservedSlots;
    private final String flinkWebUrl;
    private final Clock clock;
    private volatile ClusterCapacity capacity;
    private ClusterStatus written;
    private Instant lastLook;

    /**
     * @param reservedSlots slots streaming jobs leave free for FULL refreshes
     * @param flinkWebUrl where a browser reaches Flink's web UI; null when nowhere
     */
    ClusterReport(
            FlinkTarget flink,
            KafkaLog statusLog,
            int reservedSlots,
            String flinkWebUrl,
            Clock clock) {
        this.flink = flink;
        this.statusLog = statusLog;
        this.reservedSlots = reservedSlots;
        this.flinkWebUrl = flinkWebUrl;
        this.clock = clock;
    }

    /**
     * {@code mt_cluster_slots_total}, {@code mt_cluster_slots_free}, {@code
     * mt_cluster_task_managers}: NaN until the active instance has looked (a standby never does).
     */
    static void registerGauges(MeterRegistry registry, Supplier<ClusterReport> report) {
        gauge(
                registry,
                report,
                "mt.cluster.slots.total",
                "Task slots of the cluster's TaskManagers, as of the last look (5 s apart at most)",
                ClusterCapacity::totalSlots);
        gauge(
                registry,
                report,
                "mt.cluster.slots.free",
                "Task slots no job holds, as of the last look",
                ClusterCapacity::freeSlots);
        gauge(
                registry,
                report,
                "mt.cluster.task.managers",
                "TaskManagers registered with the cluster, as of the last look",
                ClusterCapacity::taskManagers);
    }

    /**
     * {@code mt.flink.web-url}: as set, none (null) when set so, else the cluster's own.
     *
     * @throws IllegalArgumentException when set to anything but an http(s) URL or none
     */
    static String webUrl(Optional<String> configured, String clusterOwn) {
        if (configured.isEmpty()) {
            return clusterOwn;
        }
        String url = configured.get().trim();
        if (url.equals("none")) {
            return null;
        }
        if (!url.matches("(?i)https?://\\S+")) {
            throw new IllegalArgumentException(
                    "mt.flink.web-url must be where a browser reaches Flink's web UI, an http:// or"
                            + " https:// URL, or none; was '"
                            + url
                            + "'");
        }
        return url;
    }

    /**
     * One look at the cluster, after a poll, at most every {@link #LOOK_EVERY}; the queued tables
     * in the order they start.
     */
    void look(List<String> queuedTables) {
        Instant at = clock.instant();
        if (lastLook != null && at.isAfter(lastLook) && at.isBefore(lastLook.plus(LOOK_EVERY))) {
            return; // looked lately (a clock stepped back does not stop the looks)
        }
        ClusterCapacity now = flink.capacity();
        capacity = now;
        ClusterStatus status =
                new ClusterStatus(
                        now.totalSlots(),
                        now.freeSlots(),
                        reservedSlots,
                        now.taskManagers(),
                        List.copyOf(queuedTables),
                        ourJobs(flink.jobs()),
                        flinkWebUrl,
                        clock.instant());
        if (!status.sameAs(written)
                || !status.observedAt().isBefore(written.observedAt().plus(REWRITE_AFTER))) {
            statusLog.append(Contracts.CLUSTER_STATUS_V1, ClusterStatus.KEY, status);
            written = status;
        }
        // Only a look that worked counts: one that failed fails every poll until one works, so
        // failures in a row take readiness down.
        lastLook = at;
    }

    @Override
    public void close() {
        statusLog.close();
    }

    /** Our jobs that have not ended, by table. */
    static List<ClusterStatus.Job> ourJobs(List<FlinkJob> jobs) {
        return jobs.stream()
                .filter(job -> !job.ended())
                .flatMap(
                        job ->
                                JobNames.parse(job.name())
                                        .map(
                                                name ->
                                                        new ClusterStatus.Job(
                                                                job.id(),
                                                                job.name(),
                                                                name.table(),
                                                                name instanceof JobNames.Streaming
                                                                        ? ClusterStatus.Kind
                                                                                .STREAMING
                                                                        : ClusterStatus.Kind
                                                                                .REFRESH,
                                                                job.state()))
                                        .stream())
                .sorted(
                        Comparator.comparing(ClusterStatus.Job::table)
                                .thenComparing(ClusterStatus.Job::jobId))
                .toList();
    }

    private static void gauge(
            MeterRegistry registry,
            Supplier<ClusterReport> report,
            String name,
            String description,
            ToIntFunction<ClusterCapacity> value) {
        Gauge.builder(
                        name,
                        report,
                        r ->
                                Optional.ofNullable(r.get())
                                        .map(c -> c.capacity)
                                        .map(c -> (double) value.applyAsInt(c))
                                        .orElse(Double.NaN))
                .description(description)
                .strongReference(true) // the supplier is a lambda no one else holds
                .register(registry);
    }
}
