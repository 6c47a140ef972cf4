package io.mtables.ddl;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class HealthIT {

    @Test
    void readyOnceTheBrokerAnswersAndTheTopicsExist() {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                StatementRequests.management()
                                        .get("/q/health/ready")
                                        .then()
                                        .statusCode(200)
                                        .body("status", equalTo("UP"))
                                        .body(
                                                "checks.name",
                                                hasItems(
                                                        "mt-topics",
                                                        "Kafka connection health check")));
    }

    @Test
    void alive() {
        StatementRequests.management()
                .get("/q/health/live")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
    }
}
