package io.mtables.jobmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.testing.kafka.TopicProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * What the other services and the sources would send the job manager, and what it answers on {@code
 * mt.refresh.events}, through the real broker.
 */
final class BrokerDriver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ContractCodec codec = new ContractCodec();
    private final TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_EVENTS);

    /** A definition and its plan, as ddl-service and planner-service publish them. */
    void publish(TableDefinition definition, RefreshPlan plan) {
        send(Topics.TABLE_DEFINITIONS, definition.table(), Contracts.TABLE_DEFINED_V1, definition);
        send(Topics.REFRESH_PLANS, plan.table(), Contracts.REFRESH_PLANNED_V1, plan);
    }

    /** What the scheduler sends for ALTER ... REFRESH [PARTITION]. */
    void refresh(String table, Map<String, String> partition) {
        send(
                Topics.REFRESH_TICKS,
                table,
                Contracts.REFRESH_TICK_V1,
                new RefreshTick(
                        table,
                        1,
                        Instant.now(),
                        partition,
                        RefreshTick.Reason.MANUAL,
                        UUID.randomUUID().toString()));
    }

    <T> void send(String topic, String key, Contract<T> contract, T payload) {
        probe.send(
                topic,
                key,
                codec.encode(contract, payload),
                Map.of(EventHeaders.TYPE, contract.type()));
    }

    /** A Debezium change event. */
    void change(String topic, String key, String before, String after, String op) {
        produce(
                topic,
                key,
                "{\"before\":" + before + ",\"after\":" + after + ",\"op\":\"" + op + "\"}");
    }

    void produce(String topic, String key, String value) {
        probe.send(topic, key, value, Map.of());
    }

    /** The next event of this type about the table, as JSON. */
    JsonNode event(Contract<?> contract, String table, Duration patience) {
        return readTree(
                probe.await(
                                r ->
                                        table.equals(r.key())
                                                && contract.type()
                                                        .equals(
                                                                TopicProbe.header(
                                                                        r, EventHeaders.TYPE)),
                                patience)
                        .value());
    }

    TopicProbe probe() {
        return probe;
    }

    static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        probe.close();
    }
}
