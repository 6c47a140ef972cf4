package io.mtables.planner.infra;

import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.ReadyGate;
import io.mtables.messaging.UntilAcknowledged;
import io.mtables.messaging.WarmUps;
import io.mtables.messaging.active.ActiveInstance;
import io.mtables.planner.domain.PlanBook;
import io.mtables.planner.domain.Planner;
import io.mtables.planning.FlinkQueryAnalyzer;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Once this instance is the active one of its service, reads the plans made before (compacted
 * {@code mt.refresh.plans}) back, so that no definition version is planned twice, then serves the
 * planner and writes its plans.
 */
@ApplicationScoped
public class PlannerRuntime {

    private static final Logger LOG = Logger.getLogger(PlannerRuntime.class);

    private final PlanBook book = new PlanBook();
    private final ReadyGate gate = new ReadyGate();
    private volatile Planner planner;
    private KafkaLog plans;
    @jakarta.inject.Inject MeterRegistry registry;

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName,
            @ConfigProperty(name = "mp.messaging.incoming.table-definitions.group.id") String group,
            @ConfigProperty(name = "mt.warm-up", defaultValue = "true") boolean warmUp,
            @ConfigProperty(name = "mt.warm-up.repeats", defaultValue = "30") int warmUpRepeats) {
        plans = new KafkaLog(Topics.REFRESH_PLANS, serviceName, KafkaLog.clientConfig(kafka));
        // The same keys and defaults as ddl-service's previews (a preview made with other settings
        // is planned again).
        PlannerSettings settings =
                PlannerSettings.read(ConfigProvider.getConfig()::getOptionalValue);
        // One instance plans (its consumer is given every definition); a standby reads the plans
        // only once it takes over, so it plans from the latest. A failure (the broker gone while a
        // dead letter is written, say) shows in readiness; tried again.
        Thread loader =
                new Thread(
                        () ->
                                ActiveInstance.of(group)
                                        .startWhenActive(
                                                gate,
                                                () ->
                                                        gate.runUntilDone(
                                                                "loading the plans",
                                                                Duration.ofSeconds(5),
                                                                () ->
                                                                        load(
                                                                                settings,
                                                                                warmUp,
                                                                                warmUpRepeats))),
                        "plan-loader");
        loader.setContextClassLoader(
                Thread.currentThread()
                        .getContextClassLoader()); // Flink finds its factories through it
        loader.setDaemon(true);
        loader.start();
    }

    void onStop(@Observes ShutdownEvent stop) {
        if (plans != null) {
            plans.close();
        }
    }

    /** How long a plan Kafka did not take waits before it is written again. */
    static final Duration WRITE_AGAIN_AFTER = Duration.ofSeconds(1);

    /** Why plans are not being written, or null. */
    private volatile String writeProblem;

    /**
     * Writes a plan, then remembers it. A plan Kafka did not take is written again in place until
     * it is (its definition is not dead-lettered: nothing is wrong with it), readiness down
     * meanwhile.
     */
    public void publish(RefreshPlan plan) {
        UntilAcknowledged.write(
                "the plan of " + plan.table() + " v" + plan.definitionVersion(),
                () -> plans.append(Contracts.REFRESH_PLANNED_V1, plan.table(), plan),
                WRITE_AGAIN_AFTER,
                problem -> {
                    if (problem != null) {
                        LOG.warn(problem);
                    }
                    writeProblem = problem;
                });
        book.record(plan);
        // mt_plans_total{status, mode}: how many plans were published, refused ones included.
        registry.counter(
                        "mt.plans",
                        "status",
                        plan.status().name(),
                        "mode",
                        plan.mode() == null ? "none" : plan.mode().name())
                .increment();
        LOG.infof(
                "planned %s v%d: %s %s",
                plan.table(), plan.definitionVersion(), plan.status(), plan.mode());
    }

    /** The planner, once the plans made before have been read back; waits until then. */
    public Planner planner() {
        gate.await();
        return planner;
    }

    /** Ready, or standing by to take over from the active instance. */
    public boolean ready() {
        return gate.isReady() && writeProblem == null;
    }

    public String state() {
        String problem = writeProblem;
        return problem != null ? problem : gate.state();
    }

    private void load(PlannerSettings settings, boolean warmUp, int warmUpRepeats) {
        gate.progress("reading " + Topics.REFRESH_PLANS);
        for (var record : plans.readAllWhenAvailable()) {
            if (record.value() != null
                    && Contracts.REFRESH_PLANNED_V1
                            .type()
                            .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
                plans.decodeOrDeadLetter(record, Contracts.REFRESH_PLANNED_V1)
                        .ifPresent(book::record);
            }
        }
        gate.progress("starting Flink's planner");
        FlinkQueryAnalyzer analyzer = new FlinkQueryAnalyzer();
        // A query over other materialized tables is planned with their current plans.
        planner = new Planner(book, settings, table -> analyzer.analyze(table, book::last));
        gate.open();
        if (warmUp) {
            // After opening: a definition that comes meanwhile waits for the planner's thread,
            // which it would have spent warming up anyway.
            WarmUps.run("planner", () -> analyzer.warmUp(warmUpRepeats), registry);
        }
    }
}
