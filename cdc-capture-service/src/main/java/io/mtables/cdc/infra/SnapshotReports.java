package io.mtables.cdc.infra;

import io.mtables.messaging.BrokerUnavailableException;
import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.capture.CaptureSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * How far a snapshot is, as {@code CaptureSnapshot.v1} on {@code mt.capture.status}, one record per
 * captured table keyed by its change topic: the rows it has read of each, against PostgreSQL's
 * estimate, every {@link #REPORT_EVERY} while it runs, and once done when its transaction has
 * committed. Its rows cannot be read before that (the whole snapshot is one transaction), so this
 * is the only word of its progress. Sent from a thread of its own: the engine never waits on it. A
 * report under way that fails gives way to the next; the last, done, is tried again until it is
 * sent or the service stops.
 */
final class SnapshotReports implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SnapshotReports.class);

    static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    /** How long a done report waits before it is tried again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(2);

    /** A captured table: its change topic, its name and PostgreSQL's estimate of its rows. */
    record Table(String topic, String name, Long estimatedRows) {}

    private final KafkaLog log;
    private final List<Table> tables;
    private final Clock clock;
    private final ExecutorService sender =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread thread = new Thread(r, "capture-snapshot-reports");
                        thread.setDaemon(true);
                        return thread;
                    });
    private volatile boolean closed;

    /** The newest report not yet sent; null when none waits. */
    private final AtomicReference<Pending> pending = new AtomicReference<>();

    private record Pending(List<CaptureSnapshot> reports, boolean untilSent) {}

    /** When the snapshot under way began; null when none is. */
    private Instant startedAt;

    private Instant reportedAt;

    SnapshotReports(KafkaLog log, List<Table> tables, Clock clock) {
        this.log = log;
        this.tables = List.copyOf(tables);
        this.clock = clock;
    }

    /**
     * A batch of a snapshot was read (the engine's thread).
     *
     * @param readSoFar the rows the snapshot has read so far, by change topic
     */
    void read(Map<String, Integer> readSoFar) {
        Instant now = clock.instant();
        if (startedAt == null) {
            startedAt = now;
        }
        if (reportedAt != null && now.isBefore(reportedAt.plus(REPORT_EVERY))) {
            return;
        }
        reportedAt = now;
        offer(new Pending(reports(readSoFar, false, now), false));
    }

    /**
     * The snapshot's transaction committed (the engine's thread): each table's rows can be read.
     *
     * @param read the rows the snapshot read, by change topic
     */
    void committed(Map<String, Integer> read) {
        if (startedAt == null) {
            return;
        }
        List<CaptureSnapshot> reports = reports(read, true, clock.instant());
        startedAt = null;
        reportedAt = null;
        offer(new Pending(reports, true));
    }

    private List<CaptureSnapshot> reports(Map<String, Integer> read, boolean done, Instant now) {
        List<CaptureSnapshot> reports = new ArrayList<>();
        for (Table table : tables) {
            reports.add(
                    new CaptureSnapshot(
                            table.topic(),
                            table.name(),
                            read.getOrDefault(table.topic(), 0),
                            table.estimatedRows(),
                            done,
                            startedAt,
                            now));
        }
        return reports;
    }

    /** Makes {@code next} the report to send, and the sender send it when it is free. */
    private void offer(Pending next) {
        if (pending.getAndSet(next) == null) {
            sender.execute(this::sendPending);
        }
    }

    private void sendPending() {
        for (Pending next = pending.getAndSet(null);
                next != null && !closed;
                next = pending.getAndSet(null)) {
            send(next);
        }
    }

    private void send(Pending next) {
        while (!closed) {
            try {
                for (CaptureSnapshot report : next.reports()) {
                    log.append(Contracts.CAPTURE_SNAPSHOT_V1, report.topic(), report);
                }
                return;
            } catch (BrokerUnavailableException e) {
                LOG.warnf(
                        "the snapshot's progress could not be reported on mt.capture.status%s: %s",
                        next.untilSent() ? " (tried again)" : " (the next report follows)",
                        e.getMessage());
                if (!next.untilSent() || pending.get() != null) {
                    return; // a newer report follows
                }
                try {
                    Thread.sleep(RETRY_AFTER.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            } catch (RuntimeException e) {
                // Not the broker's absence (a report its contract refuses): trying again would not
                // help, and it must not hold back the next.
                LOG.errorf(e, "the snapshot's progress cannot be reported on mt.capture.status");
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.shutdownNow();
        log.close();
    }
}
