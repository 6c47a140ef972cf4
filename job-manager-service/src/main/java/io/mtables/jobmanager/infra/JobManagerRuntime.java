package io.mtables.jobmanager.infra;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.EmbeddedFlinkTarget;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.jobs.JobSubmitter;
import io.mtables.jobmanager.jobs.KafkaSourceCredentials;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.jobmanager.pipelines.PipelineManager;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.LoopHeartbeat;
import io.mtables.messaging.ReadyGate;
import io.mtables.messaging.active.ActiveInstance;
import io.mtables.planning.StoredStatements;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.tick.RefreshTick;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Starts the job manager: reaches the Flink target (starting the embedded cluster if needed), reads
 * back what the previous run left (its events, the definitions, the plans), takes over the jobs
 * still running on the cluster, then acts on the plans. Every action runs on one control thread, in
 * arrival order; the consumers wait for it, so an offset is committed once its record was acted on.
 * A poll of the jobs lets the waiting actions run between the tables it looks at ({@link
 * WaitingActions}).
 */
@ApplicationScoped
public class JobManagerRuntime {

    private static final Logger LOG = Logger.getLogger(JobManagerRuntime.class);

    private final ReadyGate gate = new ReadyGate();
    private final PollHealth pollHealth = new PollHealth();

    /**
     * How long one round of the poll or the refresh watch may take before the loop is taken for
     * dead: longer than the longest working round (the control thread runs the actions that submit
     * jobs, a restore's rewrite of up to 10 minutes, event writes that wait for the broker).
     */
    static final Duration LOOP_PATIENCE = Duration.ofMinutes(20);

    private final LoopHeartbeat pollBeat = new LoopHeartbeat("the poll of the jobs", LOOP_PATIENCE);
    private final LoopHeartbeat watchBeat =
            new LoopHeartbeat("the watch of the refresh jobs", LOOP_PATIENCE);

    /** Records being acted on (queued or running on the control thread): the warm-up waits. */
    private final AtomicInteger actionsUnderWay = new AtomicInteger();

    private ScheduledExecutorService control;
    private WaitingActions actions;
    private volatile PipelineManager manager;
    private volatile ClusterReport clusterReport;
    private FlinkTarget flink;
    private PaimonSnapshots snapshots;
    private PaimonPartitions partitions;
    private KafkaLog eventsLog;
    private boolean warmUp;

    /** Whether the embedded cluster had run no job when this service first reached it. */
    private boolean clusterFresh;

    @jakarta.inject.Inject MeterRegistry registry;

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            @ConfigProperty(name = "mp.messaging.incoming.refresh-plans.group.id") String group,
            JobManagerConfig config,
            Locations locations) {
        this.warmUp = config.warmUp();
        ClassLoader quarkus = Thread.currentThread().getContextClassLoader();
        control =
                Executors.newSingleThreadScheduledExecutor(
                        task -> {
                            Thread thread = new Thread(task, "job-manager-control");
                            thread.setDaemon(true);
                            thread.setContextClassLoader(
                                    quarkus); // Flink finds its connectors through it
                            return thread;
                        });
        actions = new WaitingActions(control);
        Gauge.builder(
                        "mt.tables.queued",
                        this,
                        runtime -> runtime.manager == null ? 0 : runtime.manager.queued().size())
                .description("Tables whose streaming job waits for free task slots (QUEUED)")
                .register(registry);
        ClusterReport.registerGauges(registry, () -> clusterReport);
        // One instance acts on Flink: a standby reaches nothing and reads nothing until it takes
        // over, then starts as after a restart. A failed start (Flink or the broker not there yet,
        // say) shows in readiness and is tried again.
        control.execute(
                () ->
                        ActiveInstance.of(group)
                                .startWhenActive(
                                        gate,
                                        () ->
                                                gate.runUntilDone(
                                                        "starting",
                                                        Duration.ofSeconds(5),
                                                        () ->
                                                                load(
                                                                        KafkaLog.clientConfig(
                                                                                kafka),
                                                                        serviceName,
                                                                        config,
                                                                        locations))));
    }

    void onStop(@Observes ShutdownEvent stop) {
        if (control != null) {
            control.shutdownNow();
            try {
                // No poll may run after this: one would start the embedded cluster again once it is
                // stopped.
                control.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (flink != null) {
            flink.close(); // the embedded cluster keeps running: jobs survive a restart of this
            // service
        }
        if (partitions != null) {
            partitions.close();
        }
        if (snapshots != null) {
            snapshots.close();
        }
        if (clusterReport != null) {
            clusterReport.close();
        }
        if (eventsLog != null) {
            eventsLog.close();
        }
    }

    /** Started, and its polls of the jobs work; or standing by to take over from the active one. */
    public boolean ready() {
        return gate.isReady() && problem() == null;
    }

    public String state() {
        String problem = problem();
        return problem != null && gate.isOpen() ? problem : gate.state();
    }

    /** Why the started job manager cannot do its work, or null. */
    private String problem() {
        if (pollHealth.problem() != null) {
            return pollHealth.problem();
        }
        return pollBeat.problem().or(watchBeat::problem).orElse(null);
    }

    /**
     * Runs {@code action} on the control thread once started, and waits for it. An error is logged,
     * not thrown: the record was understood, and the poll tries an unfinished plan again.
     */
    public void act(Consumer<PipelineManager> action) {
        gate.await();
        try {
            call(
                    () -> {
                        action.accept(manager);
                        return null;
                    });
        } catch (RuntimeException e) {
            LOG.errorf(
                    "acting on an event failed (tried again at the next poll): %s", e.getMessage());
        }
    }

    /**
     * Acts on a tick, or reports its refresh failed, or sends it to the dead letters: {@link
     * TickActions}.
     */
    public void actOnTick(RefreshTick tick) {
        gate.await();
        ticks.handle(tick);
    }

    private final TickActions ticks =
            new TickActions(
                    tick ->
                            call(
                                    () -> {
                                        manager.onTick(tick);
                                        return null;
                                    }),
                    (tick, reason) ->
                            call(
                                    () -> {
                                        manager.tickFailed(tick, reason);
                                        return null;
                                    }),
                    1000);

    private <T> T call(Callable<T> work) {
        actionsUnderWay.incrementAndGet();
        try {
            return actions.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the control thread", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime
                    ? runtime
                    : new IllegalStateException(e.getCause());
        } finally {
            actionsUnderWay.decrementAndGet();
        }
    }

    /**
     * Reads the state back and takes over the cluster's jobs; what it made before a failure is
     * reused by the next try.
     */
    private void load(
            Map<String, Object> clientConfig,
            String serviceName,
            JobManagerConfig config,
            Locations locations) {
        gate.progress("reaching Flink (" + config.flink().target() + ")");
        if (flink == null) {
            flink = FlinkTargets.of(config, locations);
            // Looked at before any job of ours is taken over or started.
            clusterFresh = flink instanceof EmbeddedFlinkTarget && freshCluster();
        }
        // A setting that cannot be written into the report stops the start here, saying why.
        String flinkWebUrl = ClusterReport.webUrl(config.flink().webUrl(), flink.webUrl());
        if (snapshots == null) {
            snapshots = new PaimonSnapshots(locations.warehouse());
            partitions = new PaimonPartitions(locations.warehouse());
        }
        if (eventsLog == null) {
            eventsLog = new KafkaLog(Topics.REFRESH_EVENTS, serviceName, clientConfig);
        }
        PipelineManager loading =
                new PipelineManager(
                        flink,
                        new JobSubmitter(
                                flink,
                                locations.warehouse(),
                                new KafkaSourceCredentials(
                                        KafkaLog.securitySettings(clientConfig))),
                        snapshots,
                        partitions,
                        locations,
                        config,
                        new RefreshEvents(eventsLog, new RefreshMetrics(registry)),
                        Clock.systemUTC());
        gate.progress("reading " + Topics.REFRESH_EVENTS);
        for (var record : eventsLog.readAllWhenAvailable()) {
            String type = KafkaLog.header(record, EventHeaders.TYPE);
            if (Contracts.SUSPENDED_V1.type().equals(type)) {
                eventsLog
                        .decodeOrDeadLetter(record, Contracts.SUSPENDED_V1)
                        .ifPresent(loading::recall);
            } else if (Contracts.RESUMED_V1.type().equals(type)) {
                eventsLog
                        .decodeOrDeadLetter(record, Contracts.RESUMED_V1)
                        .ifPresent(loading::recall);
            } else if (Contracts.SWITCHED_OVER_V1.type().equals(type)) {
                eventsLog
                        .decodeOrDeadLetter(record, Contracts.SWITCHED_OVER_V1)
                        .ifPresent(loading::recall);
            } else if (Contracts.STATE_RESTORED_V1.type().equals(type)) {
                eventsLog
                        .decodeOrDeadLetter(record, Contracts.STATE_RESTORED_V1)
                        .ifPresent(loading::recall);
            } else if (Contracts.REFRESH_SUCCEEDED_V1.type().equals(type)) {
                eventsLog
                        .decodeOrDeadLetter(record, Contracts.REFRESH_SUCCEEDED_V1)
                        .ifPresent(loading::recall);
            }
        }
        gate.progress("reading " + Topics.TABLE_DEFINITIONS);
        try (KafkaLog definitions =
                new KafkaLog(Topics.TABLE_DEFINITIONS, serviceName, clientConfig)) {
            for (var record : definitions.readAllWhenAvailable()) {
                if (record.value() != null
                        && Contracts.TABLE_DEFINED_V1
                                .type()
                                .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
                    definitions
                            .decodeOrDeadLetter(
                                    record,
                                    Contracts.TABLE_DEFINED_V1,
                                    definition ->
                                            StoredStatements.check(
                                                    definition,
                                                    config.flink()
                                                            .moreResumeOptions()
                                                            .orElse(Set.of())))
                            .ifPresent(loading::onDefinition);
                }
            }
        }
        gate.progress("reading " + Topics.REFRESH_PLANS);
        try (KafkaLog plans = new KafkaLog(Topics.REFRESH_PLANS, serviceName, clientConfig)) {
            for (var record : plans.readAllWhenAvailable()) {
                if (record.value() != null
                        && Contracts.REFRESH_PLANNED_V1
                                .type()
                                .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
                    plans.decodeOrDeadLetter(record, Contracts.REFRESH_PLANNED_V1)
                            .ifPresent(loading::onPlan);
                }
            }
        }
        gate.progress("taking over the jobs on " + flink.describe());
        loading.start(flink.jobs());
        manager = loading;
        if (clusterReport == null) {
            clusterReport =
                    new ClusterReport(
                            flink,
                            new KafkaLog(Topics.CLUSTER_STATUS, serviceName, clientConfig),
                            config.jobs().refreshSlots(),
                            flinkWebUrl,
                            Clock.systemUTC());
        }
        long every = config.flink().pollInterval().toMillis();
        pollBeat.started();
        control.scheduleWithFixedDelay(
                pollBeat.round(this::poll), every, every, TimeUnit.MILLISECONDS);
        long watch = config.flink().refreshWatchInterval().toMillis();
        watchBeat.started();
        control.scheduleWithFixedDelay(
                watchBeat.round(this::watchRefreshes), watch, watch, TimeUnit.MILLISECONDS);
        gate.open();
        LOG.infof(
                "job manager ready; Flink %s, warehouse %s",
                flink.describe(), locations.warehouse());
        if (warmUp) {
            StartWarmUps.start(
                    flink,
                    clusterFresh,
                    eventsLog,
                    config,
                    locations,
                    registry,
                    () -> actionsUnderWay.get() == 0);
        }
    }

    /**
     * Whether the cluster has run no job yet; false when it does not answer (the next poll reports
     * that, in readiness).
     */
    private boolean freshCluster() {
        try {
            return flink.jobs().isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void poll() {
        Timer.Sample sample = Timer.start(registry);
        try {
            manager.poll(actions::runAll);
            clusterReport.look(manager.queued());
            pollHealth.succeeded();
        } catch (RuntimeException e) {
            LOG.warnf(
                    "looking at the jobs failed (readiness goes down after %d in a row): %s",
                    PollHealth.FAILURES_TO_REPORT, e.getMessage());
            pollHealth.failed(String.valueOf(e.getMessage()));
        }
        // How long a look at every job takes: the events' actions wait at most one table's look,
        // but a long poll still delays the next look at each job.
        sample.stop(
                Timer.builder("mt.jobs.poll")
                        .description(
                                "One look at every job and at new snapshots, actions run between")
                        .register(registry));
    }

    private void watchRefreshes() {
        try {
            manager.watchRefreshes();
        } catch (RuntimeException e) {
            LOG.warnf(
                    "looking at the refresh jobs failed (looked at again in a moment): %s",
                    e.getMessage());
        }
    }
}
