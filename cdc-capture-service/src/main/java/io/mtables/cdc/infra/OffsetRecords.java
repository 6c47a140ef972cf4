package io.mtables.cdc.infra;

import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Debezium's position as a record of its offsets topic, byte for byte as Kafka Connect's offset
 * writer (which the embedded engine uses) stores it: key {@code ["<engine>", <source partition>]},
 * value the source offset, both schemaless JSON. Written in the same transaction as the change
 * events it follows, the position and the events are committed together or not at all.
 */
final class OffsetRecords {

    private final String topic;
    private final String engineName;
    private final JsonConverter keys = converter(true);
    private final JsonConverter values = converter(false);

    OffsetRecords(String topic, String engineName) {
        this.topic = topic;
        this.engineName = engineName;
    }

    ProducerRecord<byte[], byte[]> of(Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
        byte[] key =
                keys.fromConnectData(engineName, null, Arrays.asList(engineName, sourcePartition));
        byte[] value = values.fromConnectData(engineName, null, sourceOffset);
        return new ProducerRecord<>(topic, key, value);
    }

    private static JsonConverter converter(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "false"), isKey);
        return converter;
    }
}
