package io.mtables.ddl.infra;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.ddl.domain.FreshnessEpisodes;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.TableFreshness;
import io.mtables.messaging.BrokerUnavailableException;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.LoopHeartbeat;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Raises freshness alerts: every second it measures each materialized table and publishes
 * FreshnessMissed or FreshnessRestored on {@code mt.refresh.events} when {@link FreshnessEpisodes}
 * says so. A write Kafka refused changes nothing and is tried again at the next look.
 */
@ApplicationScoped
public class FreshnessWatch {

    private static final Logger LOG = Logger.getLogger(FreshnessWatch.class);

    private final DdlRuntime runtime;
    private final RefreshStatusProjection statuses;
    private final PlanProjection plans;
    private final FreshnessEpisodes episodes;
    private final Clock clock;
    private final MeterRegistry registry;
    private final ScheduledExecutorService looks =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread thread = new Thread(r, "freshness-watch");
                        thread.setDaemon(true);
                        return thread;
                    });
    private KafkaLog events;
    private final LoopHeartbeat heartbeat =
            new LoopHeartbeat("the freshness watch", DdlRuntime.LOOP_PATIENCE);

    public FreshnessWatch(
            DdlRuntime runtime,
            RefreshStatusProjection statuses,
            PlanProjection plans,
            FreshnessEpisodes episodes,
            Clock clock,
            MeterRegistry registry) {
        this.runtime = runtime;
        this.statuses = statuses;
        this.plans = plans;
        this.episodes = episodes;
        this.clock = clock;
        this.registry = registry;
    }

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName) {
        events = new KafkaLog(Topics.REFRESH_EVENTS, serviceName, KafkaLog.clientConfig(kafka));
        heartbeat.started();
        looks.scheduleWithFixedDelay(
                heartbeat.round(this::lookAtEveryTable), 1, 1, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent stop) {
        looks.shutdownNow();
        if (events != null) {
            events.close();
        }
    }

    /** Why the watch is not looking at the tables any more (readiness takes it), or empty. */
    public Optional<String> problem() {
        return heartbeat.problem();
    }

    /**
     * One look at every table. What fails is tried again at the next look: an exception that
     * escaped would end the watch for good (its executor never runs it again).
     */
    void lookAtEveryTable() {
        try {
            lookAtEveryTableOnce();
        } catch (RuntimeException e) {
            LOG.warnf(e, "the freshness watch's look failed; looking again in 1 s");
        }
    }

    private void lookAtEveryTableOnce() {
        var catalog = runtime.catalog();
        if (catalog.isEmpty()) {
            return;
        }
        TableFreshness freshness = new TableFreshness(catalog.get(), statuses, plans);
        Instant now = clock.instant();
        for (TableDefinition table :
                catalog.get().tables(TableDefinition.Kind.MATERIALIZED_TABLE)) {
            try {
                var target = freshness.target(table);
                if (target.isEmpty()) {
                    continue;
                }
                var decision =
                        episodes.look(
                                table.table(),
                                table.version(),
                                target.get(),
                                freshness.measure(table.table(), now),
                                now);
                if (decision.isPresent()
                        && decision.get() instanceof FreshnessEpisodes.Missed missed) {
                    events.append(Contracts.FRESHNESS_MISSED_V1, table.table(), missed.event());
                    episodes.apply(missed.event());
                    Counter.builder("mt.freshness.misses")
                            .tag("table", table.table())
                            .description(
                                    "Freshness misses published (FreshnessMissed): the table was"
                                            + " behind its freshness for longer than the grace")
                            .register(registry)
                            .increment();
                    LOG.warnf(
                            "%s missed its freshness %s: %s behind since %s",
                            table.table(),
                            target.get(),
                            missed.event().lag(),
                            missed.event().behindSince());
                } else if (decision.isPresent()
                        && decision.get() instanceof FreshnessEpisodes.Restored restored) {
                    events.append(Contracts.FRESHNESS_RESTORED_V1, table.table(), restored.event());
                    episodes.apply(restored.event());
                    LOG.infof(
                            "%s is within its freshness %s again (lag %s)",
                            table.table(), target.get(), restored.event().lag());
                }
            } catch (BrokerUnavailableException e) {
                // Nothing was recorded, and the next table's alert would wait as long: the round
                // ends, and the next look, a second later, writes what is still due.
                LOG.warnf(
                        "freshness alert for %s not written, Kafka did not take it: %s",
                        table.table(), e.getMessage());
                return;
            } catch (RuntimeException e) {
                // Nothing was recorded: the same decision comes up at the next look and is written
                // then.
                LOG.warnf(
                        "freshness alert for %s not written, trying again in 1 s: %s",
                        table.table(), e.getMessage());
            }
        }
    }
}
