package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Commands through the real broker: every command on mt.ddl.commands gets one result back. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class DdlCommandIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private TopicProbe probe;

  @BeforeEach
  void tailResults() {
    probe = new TopicProbe().tail(Topics.DDL_RESULTS);
  }

  @AfterEach
  void close() {
    probe.close();
  }

  @Test
  void commandThatIsNotJsonGetsAMalformedCommandResultUnderItsKey() throws Exception {
    String key = "it-" + UUID.randomUUID();

    probe.send(Topics.DDL_COMMANDS, key, "SHOW MATERIALIZED TABLES", Map.of());

    ConsumerRecord<String, String> result = awaitResult(key);
    JsonNode body = JSON.readTree(result.value());
    assertThat(body.path("status").asText()).isEqualTo("FAILED");
    assertThat(body.path("error").path("reason").asText()).isEqualTo("MalformedCommand");
    assertThat(body.path("error").path("message").asText()).contains("not JSON");
    assertThat(body.path("error").path("allowed").asText()).contains("\"statement\"");
    assertThat(TopicProbe.header(result, EventHeaders.TYPE)).isEqualTo(Contracts.STATEMENT_RESULT_V1.type());
    assertThat(TopicProbe.header(result, EventHeaders.SUBJECT)).isEqualTo(key);
    assertThat(TopicProbe.header(result, EventHeaders.SOURCE)).isEqualTo("ddl-service");
  }

  @Test
  void commandWithoutStatementIsRefusedNamingTheMissingField() throws Exception {
    String key = "it-" + UUID.randomUUID();

    probe.send(Topics.DDL_COMMANDS, key, "{\"sql\": \"SHOW TABLES\"}", Map.of());

    JsonNode body = JSON.readTree(awaitResult(key).value());
    assertThat(body.path("error").path("reason").asText()).isEqualTo("MalformedCommand");
    assertThat(body.path("error").path("message").asText()).contains("statement");
  }

  @Test
  void requestIdInTheCommandWinsOverTheRecordKey() throws Exception {
    String requestId = "it-" + UUID.randomUUID();
    String command = "{\"statement\": \"SHOW MATERIALIZED TABLES\", \"requestId\": \"" + requestId + "\"}";

    probe.send(Topics.DDL_COMMANDS, "some-other-key", command, Map.of());

    assertThat(JSON.readTree(awaitResult(requestId).value()).path("requestId").asText()).isEqualTo(requestId);
  }

  private ConsumerRecord<String, String> awaitResult(String key) {
    return probe.await(record -> key.equals(record.key()), Duration.ofSeconds(60));
  }
}
