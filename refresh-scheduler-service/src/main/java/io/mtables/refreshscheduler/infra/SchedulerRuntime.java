package io.mtables.refreshscheduler.infra;

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
  private final Object lock = new Object();
  private final Map<String, Integer> partitionOf = new HashMap<>();
  private final Set<Integer> owned = new HashSet<>();
  private TickSchedule schedule;
  private TickWriter writer;
  private Map<String, Object> clientConfig;
  private String source;
  private Thread timer;
  private final JitterStats jitter = new JitterStats();

  void onStart(
      @Observes StartupEvent start,
      @Identifier("default-kafka-broker") Map<String, Object> kafka,
      @ConfigProperty(name = "quarkus.application.name") String serviceName,
      SchedulerConfig config) {
    clientConfig = KafkaLog.clientConfig(kafka);
    source = serviceName;
    schedule = new TickSchedule(config.zone(), config.catchUpWindow());
    Thread starter = new Thread(() -> {
      try {
        gate.progress("starting the transactional tick writer");
        writer = new TickWriter(clientConfig, serviceName, config.transactionTimeout());
        timer = new Thread(this::fireLoop, "tick-timer");
        timer.setDaemon(true);
        timer.start();
        gate.open();
      } catch (RuntimeException e) {
        LOG.error("the scheduler cannot start", e);
        gate.progress("failed to start: " + e.getMessage());
      }
    }, "scheduler-start");
    starter.setDaemon(true);
    starter.start();
  }

  void onStop(@Observes ShutdownEvent stop) {
    if (timer != null) {
      timer.interrupt();
    }
    if (writer != null) {
      writer.close();
    }
  }

  public boolean ready() {
    return gate.isOpen();
  }

  public String state() {
    return gate.state() + "; tables scheduled: " + (schedule == null ? 0 : schedule.size()) + "; " + jitter.summary();
  }

  /** Partitions given to this instance: its tables' last ticks are read back before their plans arrive. */
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
    synchronized (lock) {
      Set<Integer> gone = new HashSet<>();
      partitions.forEach(p -> gone.add(p.partition()));
      owned.removeAll(gone);
      schedule.release(table -> gone.contains(partitionOf.get(table)));
      lock.notifyAll();
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

  /** ALTER ... REFRESH [PARTITION]: one MANUAL tick now, whichever instance reads the request. */
  public void onRefreshRequested(RefreshRequested request) {
    gate.await();
    String id = request.requestId() == null ? request.table() + "@manual@" + request.requestedAt() : request.requestId();
    writer.writeManual(new RefreshTick(request.table(), request.definitionVersion(), request.requestedAt(), request.partition(), RefreshTick.Reason.MANUAL, id));
  }

  private void fireLoop() {
    while (!Thread.currentThread().isInterrupted()) {
      List<RefreshTick> due;
      synchronized (lock) {
        Instant now = clock.instant();
        Instant next = schedule.nextDue().orElse(now.plusSeconds(1));
        if (next.isAfter(now)) {
          try {
            lock.wait(Math.max(1, Math.min(1000, Duration.between(now, next).toMillis())));
          } catch (InterruptedException e) {
            return;
          }
          continue;
        }
        due = schedule.due(now);
      }
      try {
        writer.writeScheduled(due);
        Instant written = clock.instant();
        due.stream().filter(t -> t.reason() == RefreshTick.Reason.SCHEDULED).forEach(t -> jitter.record(Duration.between(t.scheduledTime(), written)));
      } catch (RuntimeException e) {
        // The ticks are lost for now; the next start or take-over catches the tables up.
        LOG.errorf("writing %d ticks failed: %s", due.size(), e.getMessage());
      }
    }
  }
}
