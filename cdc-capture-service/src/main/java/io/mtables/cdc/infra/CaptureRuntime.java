package io.mtables.cdc.infra;

import io.debezium.embedded.EmbeddedEngineChangeEvent;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.cdc.CdcConfig;
import io.mtables.cdc.domain.DebeziumProperties;
import io.mtables.messaging.KafkaLog;
import io.mtables.messaging.MessagingConfig;
import io.mtables.schemas.Topics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs Debezium's embedded engine with the PostgreSQL connector: the configured tables' rows, then
 * their changes, into Kafka, exactly once ({@link ChangePublisher}). Stops cleanly on shutdown;
 * after a crash it resumes from the position committed with the last change events.
 */
@ApplicationScoped
public class CaptureRuntime {

    @jakarta.inject.Inject MeterRegistry registry;

    private static final Logger LOG = Logger.getLogger(CaptureRuntime.class);

    private final ExecutorService engineThread =
            Executors.newSingleThreadExecutor(r -> new Thread(r, "debezium-engine"));
    private volatile String state = "starting";
    private volatile boolean running;
    private DebeziumEngine<ChangeEvent<String, String>> engine;
    private ChangePublisher publisher;

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            CdcConfig config,
            MessagingConfig messaging) {
        Map<String, Object> clientConfig = KafkaLog.clientConfig(kafka);
        List<String> includeList = CdcConfig.includeList(config.tables());
        List<DatabasePreparation.CapturedTable> tables = DatabasePreparation.prepare(config);
        // Change topics and Debezium's offsets topic are replicated like every other topic of the
        // system.
        publisher =
                new ChangePublisher(
                        clientConfig,
                        config.topicPartitions(),
                        messaging.topicReplicationFactor(),
                        // One capture per slot: its restarts share the id, so each fences the last.
                        DebeziumProperties.ENGINE_NAME + "." + config.slotName(),
                        config.transactionTimeout(),
                        new OffsetRecords(config.offsetsTopic(), DebeziumProperties.ENGINE_NAME),
                        List.of("__debezium-heartbeat"),
                        event -> ((EmbeddedEngineChangeEvent<?, ?, ?>) event).sourceRecord(),
                        new ChangeMetrics(registry, Clock.systemUTC()),
                        new SnapshotReports(
                                new KafkaLog(
                                        Topics.CAPTURE_STATUS, "cdc-capture-service", clientConfig),
                                tables.stream().map(table -> snapshotTable(config, table)).toList(),
                                Clock.systemUTC()));
        // Every captured table has its topic before its first change: a job over a table still
        // empty would otherwise fail on a topic that does not exist (Flink's Kafka source does not
        // wait).
        tables.forEach(table -> publisher.ensureTopic(topicOf(config, table)));
        engine =
                DebeziumEngine.create(Json.class)
                        .using(
                                DebeziumProperties.of(
                                        config, clientConfig, messaging.topicReplicationFactor()))
                        .using(
                                new DebeziumEngine.ConnectorCallback() {
                                    @Override
                                    public void taskStarted() {
                                        running = true;
                                        state =
                                                "capturing "
                                                        + String.join(", ", includeList)
                                                        + " into "
                                                        + config.topicPrefix()
                                                        + ".*";
                                        LOG.infof(
                                                "capturing %s from %s:%d/%s",
                                                includeList,
                                                config.database().host(),
                                                config.database().port(),
                                                config.database().name());
                                    }

                                    @Override
                                    public void taskStopped() {
                                        running = false;
                                    }
                                })
                        .using(
                                (success, message, error) -> {
                                    running = false;
                                    state =
                                            success
                                                    ? "stopped"
                                                    : "failed: "
                                                            + message
                                                            + (error == null
                                                                    ? ""
                                                                    : " ("
                                                                            + error.getMessage()
                                                                            + ")");
                                    if (!success) {
                                        LOG.errorf(error, "the capture stopped: %s", message);
                                    }
                                })
                        .notifying(publisher)
                        .build();
        engineThread.execute(engine);
    }

    /** The change topic a captured table's events go to: {@code <prefix>.<schema>.<table>}. */
    private static String topicOf(CdcConfig config, DatabasePreparation.CapturedTable table) {
        return config.topicPrefix() + "." + table.name();
    }

    private static SnapshotReports.Table snapshotTable(
            CdcConfig config, DatabasePreparation.CapturedTable table) {
        return new SnapshotReports.Table(
                topicOf(config, table), table.name(), table.estimatedRows());
    }

    void onStop(@Observes ShutdownEvent stop) {
        try {
            if (engine != null) {
                engine.close(); // commits the offsets of what Kafka acknowledged
            }
            engineThread.shutdown();
            engineThread.awaitTermination(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            LOG.warnf("closing the engine: %s", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (publisher != null) {
                publisher.close();
            }
        }
    }

    public boolean running() {
        return running;
    }

    public String state() {
        return state
                + "; change events published: "
                + (publisher == null ? 0 : publisher.published());
    }
}
