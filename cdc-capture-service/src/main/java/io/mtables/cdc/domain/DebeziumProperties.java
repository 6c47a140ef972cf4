package io.mtables.cdc.domain;

import io.mtables.cdc.CdcConfig;
import java.util.Map;
import java.util.Properties;

/**
 * The Debezium PostgreSQL connector's configuration for our topics: the same properties a Kafka
 * Connect deployment takes (docs/cdc.md), plus the embedded engine's offset store.
 */
public final class DebeziumProperties {

    /** The engine's name: the key its offsets are stored under. */
    public static final String ENGINE_NAME = "mt-cdc-capture";

    /**
     * The prefix of the logical decoding messages the heartbeat writes; they are never published.
     */
    public static final String HEARTBEAT_MESSAGE_PREFIX = "mt-heartbeat";

    /**
     * Writes one WAL record the slot decodes, whatever tables are busy: a non-transactional logical
     * decoding message (PostgreSQL 14+, needs no table). pgoutput skips transactions on tables
     * outside the publication, so without it an idle capture reads nothing it could confirm while
     * other tables fill the WAL; with it, every heartbeat moves the confirmed position past all of
     * that WAL.
     */
    public static final String HEARTBEAT_ACTION_QUERY =
            "SELECT pg_logical_emit_message(false, '"
                    + HEARTBEAT_MESSAGE_PREFIX
                    + "', now()::text)";

    private DebeziumProperties() {}

    /**
     * @param kafka the service's own Kafka client settings (bootstrap servers and, on a secured
     *     broker, its credentials): the offset store connects with them
     */
    public static Properties of(
            CdcConfig config, Map<String, Object> kafka, short replicationFactor) {
        Properties p = new Properties();
        p.setProperty("name", ENGINE_NAME);
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("database.hostname", config.database().host());
        p.setProperty("database.port", String.valueOf(config.database().port()));
        p.setProperty("database.user", config.database().user());
        p.setProperty("database.password", config.database().password());
        p.setProperty("database.dbname", config.database().name());
        // TLS as the service's own connection has it: database.sslmode, database.sslrootcert.
        config.database().tls().forEach((key, value) -> p.setProperty("database." + key, value));
        p.setProperty("topic.prefix", config.topicPrefix());
        p.setProperty(
                "table.include.list", String.join(",", CdcConfig.includeList(config.tables())));
        // pgoutput is built into PostgreSQL 10+; the default decoderbufs needs a server plugin.
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", config.slotName());
        p.setProperty("publication.name", config.publication());
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("snapshot.mode", config.snapshotMode());
        // Flink's debezium-json reads decimals as strings; Debezium's default is base64 bytes.
        p.setProperty("decimal.handling.mode", "string");
        // date, time and timestamp as text Flink's debezium-json reads as DATE, TIME and TIMESTAMP.
        p.setProperty("converters", "temporal");
        p.setProperty("temporal.type", IsoTemporalConverter.class.getName());
        p.setProperty(
                "heartbeat.interval.ms", String.valueOf(config.heartbeatInterval().toMillis()));
        p.setProperty("heartbeat.action.query", HEARTBEAT_ACTION_QUERY);
        // The heartbeat's message moves the position but is not a change: Debezium drops it
        // unpublished.
        p.setProperty("message.prefix.exclude.list", HEARTBEAT_MESSAGE_PREFIX);
        // A delete is followed by a tombstone (null value) so compacted topics drop the key; Flink
        // skips it.
        p.setProperty("tombstones.on.delete", "true");
        // The plain envelope {before, after, source, op, ts_ms}: what Flink's debezium-json expects
        // by default.
        p.setProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.setProperty("converter.schemas.enable", "false");
        p.setProperty("key.converter.schemas.enable", "false");
        p.setProperty("value.converter.schemas.enable", "false");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
        p.setProperty("offset.storage.topic", config.offsetsTopic());
        p.setProperty("offset.storage.partitions", "1");
        p.setProperty("offset.storage.replication.factor", String.valueOf(replicationFactor));
        // The publisher writes the position into this topic in the transaction of the change events
        // it follows: only committed positions may be read back at start.
        p.setProperty("isolation.level", "read_committed");
        p.setProperty(
                "offset.flush.interval.ms",
                String.valueOf(config.offsetFlushInterval().toMillis()));
        kafka.forEach((key, value) -> p.setProperty(key, String.valueOf(value)));
        p.setProperty("statistics.metrics.enabled", "false");
        // Debezium waits up to poll.interval.ms (500 ms by default) for a batch to fill: a wait
        // every change pays before it reaches Kafka. 50 ms keeps batches under load and the latency
        // low.
        p.setProperty("poll.interval.ms", "50");
        config.debezium().forEach(p::setProperty);
        return p;
    }
}
