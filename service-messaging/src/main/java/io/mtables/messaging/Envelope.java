package io.mtables.messaging;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.EventHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An event as a Kafka record: the payload checked against its contract, in a CloudEvents binary
 * envelope.
 */
public final class Envelope {

    private static final ContractCodec CODEC = new ContractCodec();

    private Envelope() {}

    public static <T> ProducerRecord<String, String> record(
            String topic, String source, Contract<T> contract, String key, T payload) {
        ProducerRecord<String, String> record =
                new ProducerRecord<>(topic, key, CODEC.encode(contract, payload));
        header(record, EventHeaders.SPEC_VERSION, EventHeaders.SPEC_VERSION_1_0);
        header(record, EventHeaders.ID, UUID.randomUUID().toString());
        header(record, EventHeaders.SOURCE, source);
        header(record, EventHeaders.TYPE, contract.type());
        header(record, EventHeaders.SUBJECT, key);
        header(
                record,
                EventHeaders.TIME,
                DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                        Instant.now().atOffset(ZoneOffset.UTC)));
        header(record, EventHeaders.CONTENT_TYPE, "application/json");
        return record;
    }

    private static void header(ProducerRecord<String, String> record, String name, String value) {
        record.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
