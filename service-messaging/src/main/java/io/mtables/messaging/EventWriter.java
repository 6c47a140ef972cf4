package io.mtables.messaging;

import io.mtables.schemas.Contract;
import io.mtables.schemas.ContractCodec;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Builds outgoing records in the envelope every consumer expects: the payload checked against its
 * contract, the Kafka key, and CloudEvents attributes (written by SmallRye as binary-mode {@code
 * ce_*} headers).
 */
@ApplicationScoped
public class EventWriter {

  private final URI source;
  private final ContractCodec codec = new ContractCodec();

  public EventWriter(@ConfigProperty(name = "quarkus.application.name") String serviceName) {
    this.source = URI.create(serviceName);
  }

  /** A message carrying {@code payload} under {@code key}, ready for an emitter or a return value. */
  public <T> Message<String> message(Contract<T> contract, String key, T payload) {
    String json = codec.encode(contract, payload);
    OutgoingCloudEventMetadata<String> cloudEvent =
        OutgoingCloudEventMetadata.<String>builder()
            .withId(UUID.randomUUID().toString())
            .withType(contract.type())
            .withSource(source)
            .withSubject(key)
            .withTimestamp(ZonedDateTime.now(ZoneOffset.UTC))
            .withDataContentType("application/json")
            .build();
    OutgoingKafkaRecordMetadata<String> kafka =
        OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build();
    return Message.of(json).addMetadata(cloudEvent).addMetadata(kafka);
  }
}
