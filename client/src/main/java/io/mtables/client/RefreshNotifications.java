package io.mtables.client;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The refresh notifications of {@code mt.refresh.events} (docs/topics.md) as the records of
 * schemas: a table's new snapshot ({@code RefreshSucceeded}), a failed refresh, a job started or
 * queued, a table suspended, resumed or dropped, freshness missed and restored. Each record is a
 * CloudEvent in Kafka's binary mode: its type in the {@code ce_type} header, its table the key.
 */
public final class RefreshNotifications implements AutoCloseable {

    private static final ContractCodec CODEC = new ContractCodec();

    private final KafkaConsumer<String, String> consumer;

    /**
     * A consumer in group {@code groupId} from the start of the topic (a new group reads every
     * notification the topic still holds).
     *
     * @param kafka the consumer's settings: {@code bootstrap.servers}, and on a secured broker its
     *     {@code security.protocol}, {@code sasl.*} and {@code ssl.*} (docs/security.md, "Kafka")
     */
    public RefreshNotifications(Map<String, Object> kafka, String groupId) {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        settings.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.consumer =
                new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(Topics.REFRESH_EVENTS));
    }

    /** A consumer of the broker at {@code bootstrapServers} without security (a local broker). */
    public static RefreshNotifications from(String bootstrapServers, String groupId) {
        return new RefreshNotifications(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), groupId);
    }

    /** The notifications that arrive within {@code timeout}, oldest first. */
    public List<Notification> poll(Duration timeout) {
        List<Notification> notifications = new ArrayList<>();
        for (ConsumerRecord<String, String> record : consumer.poll(timeout)) {
            notifications.add(decode(record));
        }
        return notifications;
    }

    @Override
    public void close() {
        consumer.close();
    }

    /** One notification: a record of schemas, or, of a type this client does not know, none. */
    static Notification decode(ConsumerRecord<String, String> record) {
        Header type = record.headers().lastHeader(EventHeaders.TYPE);
        String typeName = type == null ? "" : new String(type.value(), StandardCharsets.UTF_8);
        Object event =
                Contracts.REFRESH_EVENTS.stream()
                        .filter(contract -> contract.type().equals(typeName))
                        .findFirst()
                        .<Object>map(contract -> decode(contract, record.value()))
                        .orElse(null);
        return new Notification(typeName, record.key(), event, record.value());
    }

    private static <T> T decode(Contract<T> contract, String json) {
        return CODEC.decode(contract, json);
    }

    /**
     * A notification.
     *
     * @param type its CloudEvents type ({@code io.mtables.mt.RefreshSucceeded.v1})
     * @param table the table it is about (catalog.database.name)
     * @param event the record of schemas it decodes to; null for a type this client does not know
     *     (a newer version: {@code json} holds it)
     * @param json the payload as written
     */
    public record Notification(String type, String table, Object event, String json) {

        /** The event, when it is of {@code kind} ({@code RefreshSucceeded.class}). */
        public <T> Optional<T> as(Class<T> kind) {
            return kind.isInstance(event) ? Optional.of(kind.cast(event)) : Optional.empty();
        }
    }
}
