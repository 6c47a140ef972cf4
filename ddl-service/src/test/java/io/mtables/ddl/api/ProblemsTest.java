package io.mtables.ddl.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.ddl.StatementError;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class ProblemsTest {

    @Test
    void aChangeKafkaDidNotTakeIs503WithWhenToTryAgain() {
        Response response =
                Problems.of(
                        StatementError.of(
                                "BrokerUnavailable", "Kafka did not acknowledge the change.", null),
                        "r1");

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
    }

    @Test
    void aRefusedStatementIs400WithoutRetryAfter() {
        Response response = Problems.of(StatementError.of("InvalidStatement", "no", null), "r2");

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getHeaderString("Retry-After")).isNull();
    }
}
