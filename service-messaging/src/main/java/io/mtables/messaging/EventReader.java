package io.mtables.messaging;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.ContractViolationException;
import io.mtables.schemas.EventHeaders;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads an enveloped record: the {@code ce_type} header must name one of the contracts the consumer
 * accepts, the key must be present, and the payload must follow the contract. Anything else is an
 * {@link UnreadableRecordException} whose message says which service refused which record, why, and
 * what it accepts.
 */
@ApplicationScoped
public class EventReader {

    private final String serviceName;
    private final ContractCodec codec = new ContractCodec();

    public EventReader(@ConfigProperty(name = "quarkus.application.name") String serviceName) {
        this.serviceName = serviceName;
    }

    /** The record as one of the {@code accepted} contracts. */
    public IncomingEvent read(ConsumerRecord<String, String> record, List<Contract<?>> accepted) {
        String position = record.topic() + "-" + record.partition() + "@" + record.offset();
        String type = header(record, EventHeaders.TYPE);
        Contract<?> contract =
                accepted.stream()
                        .filter(candidate -> candidate.type().equals(type))
                        .findFirst()
                        .orElseThrow(() -> refuse(position, typeMessage(type, accepted)));
        if (record.key() == null || record.key().isBlank()) {
            throw refuse(
                    position,
                    "the record has no key; records here are keyed by the table identifier");
        }
        try {
            return new IncomingEvent(
                    record.key(), contract, codec.decode(contract, record.value()), position);
        } catch (ContractViolationException e) {
            throw new UnreadableRecordException(prefix(position) + e.getMessage(), e);
        }
    }

    private static String typeMessage(String type, List<Contract<?>> accepted) {
        String readable =
                accepted.isEmpty()
                        ? "no event types yet"
                        : accepted.stream().map(Contract::type).collect(Collectors.joining(", "));
        String found = type == null ? "no " + EventHeaders.TYPE + " header" : "type '" + type + "'";
        return found + " is not one it reads; it reads " + readable;
    }

    private UnreadableRecordException refuse(String position, String why) {
        return new UnreadableRecordException(prefix(position) + why);
    }

    private String prefix(String position) {
        return serviceName + " cannot read the record at " + position + ": ";
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
