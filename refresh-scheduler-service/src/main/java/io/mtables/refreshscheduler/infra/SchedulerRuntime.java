package io.mtables.refreshscheduler.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.ReadyGate;
import io.mtables.refreshscheduler.SchedulerConfig;
import io.mtables.refreshscheduler.domain.TickSchedule;
import io.mtables.schemas.lifecycle.RefreshRequested;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.tick.RefreshTick;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Fires the ticks of the tables this instance owns. Ownership is Kafka's: the partitions of {@code
 * mt.refresh.plans} assigned to this instance's consumer (group {@code refresh-scheduler-service})
 * are its tables; when an instance stops or dies, the group gives its partitions to another one,
 * which reads the plans of those partitions from the start and the last ticks (committed ones
 * only), and carries on: at most one catch-up per table, no tick twice.
 */
@ApplicationScoped
public class SchedulerRuntime {

    private static final Logger LOG = Logger.getLogger(SchedulerRuntime.class);

    private final ReadyGate gate = new ReadyGate();
    private final Clock clock = Clock.systemUTC();

    /**
     * How far back refresh outcomes are read at start: a held tick waits at most one period, at
     * most a day.
     */
    private static final Duration CHAIN_LOOKBACK = Duration.ofDays(2);

    private final Object lock = new Object();

    /**
     * Held while ticks are written: a revocation waits for the write in flight, so the next owner
     * reads its transaction committed (or aborted) and never ticks the same boundary again.
     */
    private final Object writing = new Object();

    private final Map<String, Integer> partitionOf = new HashMap<>();
    private final Set<Integer> owned = new HashSet<>();
    private TickSchedule schedule;
    private TickWriter writer;
    private Thread watcher;
    private Map<String, Object> clientConfig;
    private String source;
    private Thread timer;
    private final JitterStats jitter = new JitterStats();
    private final UnwrittenTicks unwritten = new UnwrittenTicks();

    /** Why the chain watcher stopped, or null: readiness is down then. */
    private volatile String chainProblem;

    @jakarta.inject.Inject MeterRegistry registry;
    private TickMetrics metrics;

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            SchedulerConfig config) {
        metrics = new TickMetrics(registry);
        clientConfig = KafkaLog.clientConfig(kafka);
        source = serviceName;
        schedule = new TickSchedule(config.zone(), config.catchUpWindow());
        // A failed start (the broker not there yet, say) shows in readiness and is tried again.
        Thread starter =
                new Thread(
                        () ->
                                gate.runUntilDone(
                                        "starting",
                                        Duration.ofSeconds(5),
                                        () -> start(serviceName, config)),
                        "scheduler-start");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * Opens the tick writer (kept for the next try if a later step fails), catches up with the
     * chains, starts the threads.
     */
    private void start(String serviceName, SchedulerConfig config) {
        gate.progress("starting the transactional tick writer");
        if (writer == null) {
            writer = new TickWriter(clientConfig, serviceName, config.transactionTimeout());
        }
        gate.progress("reading all plans and recent refresh outcomes, for the order of chains");
        ChainWatcher chains =
                new ChainWatcher(
                        clientConfig, CHAIN_LOOKBACK, clock, this::onAnyPlan, this::onRefreshEnded);
        try {
            chains.catchUp();
        } catch (RuntimeException e) {
            chains.close();
            throw e;
        }
        watcher = new Thread(() -> watchChains(chains), "chain-watcher");
        watcher.setDaemon(true);
        watcher.start();
        timer = new Thread(this::fireLoop, "tick-timer");
        timer.setDaemon(true);
        timer.start();
        gate.open();
    }

    void onStop(@Observes ShutdownEvent stop) {
        // The threads end before the writer closes: a tick transaction under way is finished or
        // aborted by its own thread, never cut by a closed producer.
        for (Thread thread : new Thread[] {timer, watcher}) {
            if (thread != null) {
                thread.interrupt();
            }
        }
        for (Thread thread : new Thread[] {timer, watcher}) {
            joinQuietly(thread);
        }
        if (writer != null) {
            writer.close();
        }
    }

    private static void joinQuietly(Thread thread) {
        if (thread == null) {
            return;
        }
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
            if (thread.isAlive()) {
                LOG.warnf(
                        "%s did not end within 10 s of shutdown; closing the tick writer anyway",
                        thread.getName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Started, and its ticks are being written. */
    public boolean ready() {
        return gate.isOpen() && unwritten.problem() == null && chainProblem == null;
    }

    public String state() {
        String problem = unwritten.problem() != null ? unwritten.problem() : chainProblem;
        return (problem == null ? gate.state() : problem)
                + "; tables scheduled: "
                + (schedule == null ? 0 : schedule.size())
                + "; ticks held for upstream refreshes: "
                + (schedule == null ? 0 : schedule.heldCount())
                + "; "
                + jitter.summary();
    }

    /**
     * Partitions given to this instance: its tables' last ticks are read back before their plans
     * arrive.
     */
    public void assigned(Collection<TopicPartition> partitions) {
        gate.await();
        List<RefreshTick> lastTicks = LastTicks.read(clientConfig, source);
        synchronized (lock) {
            lastTicks.forEach(schedule::rememberFired);
            partitions.forEach(p -> owned.add(p.partition()));
        }
        LOG.infof("now owning plans partitions %s (%d last ticks read)", owned, lastTicks.size());
    }

    /** Partitions taken away: their tables stop ticking here at once. */
    public void revoked(Collection<TopicPartition> partitions) {
        synchronized (writing) {
            synchronized (lock) {
                Set<Integer> gone = new HashSet<>();
                partitions.forEach(p -> gone.add(p.partition()));
                owned.removeAll(gone);
                schedule.release(table -> gone.contains(partitionOf.get(table)));
                unwritten.release(table -> gone.contains(partitionOf.get(table)));
                lock.notifyAll();
            }
        }
    }

    /** A plan read from an owned partition. */
    public void onPlan(RefreshPlan plan, int partition) {
        gate.await();
        synchronized (lock) {
            partitionOf.put(plan.table(), partition);
            schedule.plan(plan, clock.instant());
            lock.notifyAll();
        }
    }

    /** Any table's plan, owned here or not: tables reading it learn when it refreshes. */
    private void onAnyPlan(RefreshPlan plan) {
        synchronized (lock) {
            schedule.knowPlan(plan);
        }
    }

    /** A FULL refresh ended: ticks held for it may fire. */
    private void onRefreshEnded(String table, Instant scheduledTime) {
        synchronized (lock) {
            schedule.refreshEnded(table, scheduledTime);
            lock.notifyAll();
        }
    }

    private void watchChains(ChainWatcher chains) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                chains.pollOnce(Duration.ofMillis(500));
            }
        } catch (InterruptException e) {
            // stopping
        } catch (RuntimeException e) {
            LOG.error(
                    "the chain watcher stopped; tables reading other tables now tick at their own"
                            + " boundaries only",
                    e);
            chainProblem =
                    "the chain watcher stopped (tables reading other tables tick at their own"
                            + " boundaries only; a restart starts it again): "
                            + e.getMessage();
        } finally {
            Thread.interrupted(); // the consumer cannot close cleanly while the interrupt is
            // pending
            chains.close();
        }
    }

    /** ALTER ... REFRESH [PARTITION]: one MANUAL tick now, whichever instance reads the request. */
    public void onRefreshRequested(RefreshRequested request) {
        gate.await();
        String id =
                request.requestId() == null
                        ? request.table() + "@manual@" + request.requestedAt()
                        : request.requestId();
        RefreshTick tick =
                new RefreshTick(
                        request.table(),
                        request.definitionVersion(),
                        request.requestedAt(),
                        request.partition(),
                        RefreshTick.Reason.MANUAL,
                        id);
        writer.writeManual(tick);
        metrics.written(List.of(tick), clock.instant());
    }

    /**
     * Writes the due ticks of the tables still owned (a revocation between taking them and this
     * write gave the others to their new owner); false when Kafka did not take them.
     */
    private boolean write(List<RefreshTick> taken) {
        synchronized (writing) {
            List<RefreshTick> due;
            synchronized (lock) {
                due =
                        taken.stream()
                                .filter(
                                        t -> {
                                            Integer partition = partitionOf.get(t.table());
                                            return partition == null || owned.contains(partition);
                                        })
                                .toList();
            }
            if (due.isEmpty()) {
                return true;
            }
            try {
                writer.writeScheduled(due);
                unwritten.written();
                Instant written = clock.instant();
                due.stream()
                        .filter(t -> t.reason() == RefreshTick.Reason.SCHEDULED)
                        .forEach(t -> jitter.record(Duration.between(t.scheduledTime(), written)));
                metrics.written(due, written);
                return true;
            } catch (RuntimeException e) {
                metrics.writeFailed(due.size());
                unwritten.failed(due, e.getMessage());
                LOG.warnf(
                        "writing %d ticks failed (tried again in 1 s): %s",
                        due.size(), e.getMessage());
                return false;
            }
        }
    }

    private void fireLoop() {
        while (!Thread.currentThread().isInterrupted()) {
            List<RefreshTick> due;
            synchronized (lock) {
                Instant now = clock.instant();
                due = unwritten.before(schedule.due(now));
                if (due.isEmpty()) {
                    // Woken by a new plan or a refresh outcome (a held tick may go), else at the
                    // next boundary.
                    Instant next = schedule.nextDue().orElse(now.plusSeconds(1));
                    try {
                        lock.wait(
                                Math.max(
                                        1, Math.min(1000, Duration.between(now, next).toMillis())));
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
            }
            if (!write(due)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }
}
