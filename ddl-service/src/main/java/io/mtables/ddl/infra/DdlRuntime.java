package io.mtables.ddl.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.AccessLog;
import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.metrics.AccessMetrics;
import io.mtables.ddl.security.AuthConfig;
import io.mtables.ddl.statements.PlanPreview;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.ddl.statements.ReadModels;
import io.mtables.ddl.statements.StatementLogs;
import io.mtables.ddl.statements.StatementService;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.LoopHeartbeat;
import io.mtables.messaging.ReadyGate;
import io.mtables.messaging.UnreadableRecordException;
import io.mtables.messaging.WarmUps;
import io.mtables.messaging.active.ActiveInstance;
import io.mtables.planning.FlinkQueryAnalyzer;
import io.mtables.planning.PlannerSettings;
import io.mtables.planning.StoredStatements;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.config.SmallRyeConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Builds the statement service at start: reads the definition log back into the catalog (and
 * Flink's mirror of it) and the result log back into the record of applied request ids. Until that
 * is done the service is not ready and statements are refused with 503.
 */
@ApplicationScoped
public class DdlRuntime {

    private static final Logger LOG = Logger.getLogger(DdlRuntime.class);

    /** Between tries to read the catalog back. */
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(5);

    private final ReadyGate gate = new ReadyGate();

    /** How long a round of a background loop may take before the loop is taken for dead. */
    public static final Duration LOOP_PATIENCE = Duration.ofMinutes(2);

    /** The loop that writes results Kafka did not take at once: a round is 2 s apart. */
    private final LoopHeartbeat resultsBeat =
            new LoopHeartbeat("the writer of pending statement results", LOOP_PATIENCE);

    private final ScheduledExecutorService background =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread thread = new Thread(r, "statement-results-writer");
                        thread.setDaemon(true);
                        return thread;
                    });
    private Runnable loading;
    private volatile StatementService service;

    /** The service a catalog read back replaces, until the new one took its unwritten results. */
    private volatile StatementService replaced;

    private volatile ClassLoader quarkusClassLoader;
    private KafkaLog definitions;
    private KafkaLog results;
    private KafkaLog lifecycle;
    private AccessLog accessLog;
    private SourceHistory sourceHistory;
    private volatile ActiveInstance role;
    private CommandForwarder forwarder;
    private boolean warmedUp;

    /** Whether Flink's front end and planner are warmed up once the catalog is first loaded. */
    @ConfigProperty(name = "mt.warm-up", defaultValue = "true")
    boolean warmUp;

    @jakarta.inject.Inject MeterRegistry registry;
    @jakarta.inject.Inject AccessMetrics accessMetrics;

    /** The job manager's reports; a runtime made by hand (tests) has an empty one. */
    @jakarta.inject.Inject RefreshStatusProjection statuses = new RefreshStatusProjection();

    /** The capture's reports of its snapshots; a runtime made by hand has an empty one. */
    @jakarta.inject.Inject CaptureSnapshotProjection captures = new CaptureSnapshotProjection();

    private WarehouseReader warehouse =
            new WarehouseReader(
                    Warehouse.at(
                            Path.of(".run/data/warehouse").toAbsolutePath().toUri().toString()),
                    new ReadLimits(1_000_000, 64L << 20));

    private QueryRunner queries = new QueryRunner(4, Duration.ofSeconds(60));

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            @ConfigProperty(name = "mp.messaging.incoming.ddl-commands.group.id") String group,
            DdlConfig config,
            Clock clock,
            PlanProjection plans) {
        // One instance executes statements (its consumer is given every command); a standby reads
        // no catalog and forwards what it is asked to the active one.
        role = ActiveInstance.of(group);
        forwarder =
                new CommandForwarder(
                        KafkaLog.clientConfig(kafka), serviceName, config.resultsKept());
        // The warehouse job-manager-service writes: its keys and defaults.
        this.warehouse =
                new WarehouseReader(
                        WarehouseReader.configured(ConfigProvider.getConfig()),
                        config.readLimits());
        this.queries = new QueryRunner(config.readConcurrency(), config.readTimeout());
        start(
                kafka,
                serviceName,
                PlannerSettings.read(ConfigProvider.getConfig()::getOptionalValue),
                config,
                clock,
                plans);
    }

    /** The principals that may do everything ({@code mt.auth.admins}, docs/security.md). */
    private static Set<String> admins() {
        return ConfigProvider.getConfig()
                .unwrap(SmallRyeConfig.class)
                .getConfigMapping(AuthConfig.class)
                .admins();
    }

    /** Reads the catalog back in the background; {@link #ready()} says when it is done. */
    public void start(
            Map<String, Object> kafka,
            String serviceName,
            PlannerSettings settings,
            DdlConfig config,
            Clock clock,
            PlanProjection plans) {
        quarkusClassLoader = Thread.currentThread().getContextClassLoader();
        Map<String, Object> clientConfig = KafkaLog.clientConfig(kafka);
        definitions = new KafkaLog(Topics.TABLE_DEFINITIONS, serviceName, clientConfig);
        results = new KafkaLog(Topics.DDL_RESULTS, serviceName, clientConfig);
        lifecycle = new KafkaLog(Topics.LIFECYCLE_COMMANDS, serviceName, clientConfig);
        accessLog = new AccessLog(new KafkaLog(Topics.DDL_ACCESS, serviceName, clientConfig));
        sourceHistory = new SourceHistory(KafkaLog.securitySettings(kafka));
        loading = () -> load(serviceName, settings, config, clock, plans);
        startLoading();
        resultsBeat.started();
        background.scheduleWithFixedDelay(
                resultsBeat.round(this::writePendingResults), 2, 2, TimeUnit.SECONDS);
    }

    /**
     * Reads the catalog back on a thread of its own; a failed read is tried again, and readiness
     * says why meanwhile.
     */
    private void startLoading() {
        Thread loader =
                new Thread(
                        () -> {
                            Runnable read =
                                    () ->
                                            gate.runUntilDone(
                                                    "reading the catalog back",
                                                    RETRY_PAUSE,
                                                    loading);
                            if (role == null) {
                                read.run(); // a runtime made by hand (tests): no group to ask
                            } else {
                                role.startWhenActive(gate, read);
                            }
                        },
                        "catalog-loader");
        loader.setContextClassLoader(quarkusClassLoader); // Flink finds its factories through it
        loader.setDaemon(true);
        loader.start();
    }

    /**
     * A definition write Kafka did not acknowledge may still land: until the catalog is read back
     * from its log, statements are refused with 503 (ServiceNotReady) and readiness is down.
     */
    private void reloadCatalog() {
        gate.close("reading the catalog back: a definition write was not acknowledged by Kafka");
        replaced = service; // its results not written yet go to the service read back
        service = null;
        startLoading();
    }

    /** Every 2 s; a failure is kept by the service (readiness says it) and tried again. */
    private void writePendingResults() {
        StatementService current = service;
        try {
            if (current != null && current.pendingResults() > 0) {
                current.writePendingResults();
            }
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: the results would stay unwritten.
            LOG.errorf(e, "writing the pending statement results failed; tried again in 2 s");
        }
    }

    void onStop(@Observes ShutdownEvent stop) {
        background.shutdownNow();
        if (forwarder != null) {
            forwarder.close();
        }
        if (definitions != null) {
            definitions.close();
            results.close();
            lifecycle.close();
            accessLog.close();
        }
    }

    /** Whether another instance executes the statements and this one forwards them to it. */
    public boolean standingBy() {
        return gate.isStandingBy();
    }

    /** How a standby sends a statement to the active instance. */
    /** Sends a command this instance refused to {@code mt.dead-letters}, without its credential. */
    public void deadLetterCommand(ConsumerRecord<String, String> command, String reason) {
        results.deadLetter(
                command,
                reason,
                UnreadableRecordException.class.getName(),
                Set.of(EventHeaders.AUTHORIZATION, EventHeaders.RESULT_KEY));
    }

    public CommandForwarder forwarder() {
        return forwarder;
    }

    /**
     * Blocks until the catalog is loaded: commands that arrive during start wait rather than fail.
     */
    public void awaitReady() {
        gate.await();
    }

    /**
     * Waits until ready, then runs {@code work}; a reload that closes the gate meanwhile is waited
     * out too.
     */
    public <T> T withServiceWhenReady(Function<StatementService, T> work) {
        while (true) {
            gate.await();
            try {
                return withService(work);
            } catch (ServiceNotReadyException reloading) {
                // the gate closed between the wait and the call: wait again
            }
        }
    }

    /** The loaded catalog; empty while it is being read back. */
    public Optional<Catalog> catalog() {
        StatementService current = service;
        return current == null ? Optional.empty() : Optional.of(current.catalog());
    }

    /** Runs {@code work} against the statement service, with Quarkus's class loader for Flink. */
    public <T> T withService(Function<StatementService, T> work) {
        StatementService current = service;
        if (current == null) {
            throw new ServiceNotReadyException(gate.state());
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(quarkusClassLoader);
        try {
            return work.apply(current);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void load(
            String serviceName,
            PlannerSettings settings,
            DdlConfig config,
            Clock clock,
            PlanProjection plans) {
        gate.progress("starting Flink's SQL front end");
        FlinkSql flink = new FlinkSql(settings.freshnessThreshold());
        Catalog catalog = new Catalog();
        Map<String, String> changesByRequest = new HashMap<>();
        gate.progress("reading " + Topics.TABLE_DEFINITIONS);
        readDefinitions(catalog, changesByRequest);
        for (TableDefinition table : catalog.inDependencyOrder()) {
            try {
                flink.onPlannerThread(
                        () -> {
                            flink.register(table);
                            return null;
                        });
            } catch (RuntimeException e) {
                LOG.errorf(
                        "cannot restore %s into Flink's catalog: %s",
                        table.table(), e.getMessage());
            }
        }
        gate.progress("starting Flink's planner for EXPLAIN");
        FlinkQueryAnalyzer analyzer = new FlinkQueryAnalyzer();
        PlanPreview preview = new FlinkPlanPreview(analyzer, settings, clock, plans);
        gate.progress("reading " + Topics.DDL_ACCESS);
        AccessControl access = accessLog.read(admins());
        StatementService loaded =
                new StatementService(
                        flink,
                        catalog,
                        new ReadModels(plans, statuses, warehouse, queries, captures),
                        preview,
                        new StatementLogs(definitions, results, lifecycle, accessLog),
                        access,
                        sourceHistory,
                        config,
                        clock);
        changesByRequest.forEach(loaded::rememberChange);
        gate.progress("reading " + Topics.DDL_RESULTS);
        readResults(loaded);
        StatementService previous = service != null ? service : replaced;
        if (previous != null) {
            loaded.takePendingResults(previous);
        }
        replaced = null;
        loaded.onDefinitionInDoubt(this::reloadCatalog);
        if (accessMetrics != null) { // null when made without CDI
            loaded.onAuthorized(accessMetrics::authorized);
        }
        service = loaded;
        if (previous != null) {
            previous.onDefinitionInDoubt(() -> {});
        }
        gate.open();
        LOG.infof("catalog loaded: %d tables", catalog.inDependencyOrder().size());
        if (warmUp && !warmedUp) {
            // Once per process, after opening: a statement meanwhile waits for the planner's
            // thread about as long as its own cold compilation would take.
            warmedUp = true;
            WarmUps.run("sql front end", flink::warmUp, registry);
            WarmUps.run("planner", () -> analyzer.warmUp(0), registry);
        }
    }

    /**
     * The definition log read into {@code catalog}, and which request made each table's latest
     * change into {@code changesByRequest}.
     */
    private void readDefinitions(Catalog catalog, Map<String, String> changesByRequest) {
        for (var record : definitions.readAllWhenAvailable()) {
            String type = KafkaLog.header(record, EventHeaders.TYPE);
            if (Contracts.TABLE_DEFINED_V1.type().equals(type)) {
                // A definition whose SQL this service would not have written is not taken in
                // (StoredStatements): its statement would run here when the table is registered.
                definitions
                        .decodeOrDeadLetter(
                                record,
                                Contracts.TABLE_DEFINED_V1,
                                StoredStatements::checkStatements)
                        .ifPresent(
                                defined -> {
                                    catalog.apply(defined);
                                    changesByRequest.put(defined.requestId(), defined.table());
                                });
            } else if (Contracts.TABLE_DROPPED_V1.type().equals(type)) {
                definitions
                        .decodeOrDeadLetter(record, Contracts.TABLE_DROPPED_V1)
                        .ifPresent(
                                dropped -> {
                                    catalog.apply(dropped);
                                    changesByRequest.put(dropped.requestId(), dropped.table());
                                });
            } else {
                LOG.warnf("skipping a record of type %s in %s", type, Topics.TABLE_DEFINITIONS);
            }
        }
    }

    /** The result log read into {@code loaded}: the results it answers again without executing. */
    private void readResults(StatementService loaded) {
        for (var record : results.readAllWhenAvailable()) {
            if (Contracts.STATEMENT_RESULT_V1
                    .type()
                    .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
                results.decodeOrDeadLetter(record, Contracts.STATEMENT_RESULT_V1)
                        .ifPresent(
                                result ->
                                        loaded.remember(
                                                result,
                                                KafkaLog.header(record, EventHeaders.COMMAND)));
            }
        }
    }

    /** Whether statements are served: the catalog loaded, or forwarded by a standby. */
    public boolean ready() {
        StatementService current = service;
        return gate.isReady()
                && (current == null || current.pendingResults() == 0)
                && resultsBeat.problem().isEmpty();
    }

    /** What the service is doing while not ready, or "ready". */
    public String state() {
        Optional<String> stopped = resultsBeat.problem();
        if (stopped.isPresent()) {
            return stopped.get();
        }
        StatementService current = service;
        if (gate.isOpen() && current != null && current.pendingResults() > 0) {
            return current.pendingResults()
                    + " statement result(s) not yet written to "
                    + Topics.DDL_RESULTS
                    + " (Kafka does not take them: "
                    + current.lastResultWriteFailure()
                    + "); tried again every 2 s";
        }
        return gate.state();
    }
}
