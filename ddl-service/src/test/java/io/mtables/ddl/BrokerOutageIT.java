package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A broker that stops under a statement: the change is refused as BrokerUnavailable (503,
 * retryable), nothing is applied, the service is not ready while it reads its catalog back, and the
 * same request succeeds once the broker is back. A broker of its own (bin/kafka on other ports), so
 * the other tests' broker is never stopped.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class BrokerOutageIT {

    /** Whom the statements are recorded as sent by. */
    private static final String CALLER = "service-account:tests";

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RUN_DIR = Path.of("target/outage-broker").toAbsolutePath();
    private static final int PORT =
            Integer.parseInt(System.getProperty("mt.test.outage-broker-port", "19392"));
    private static final String BOOTSTRAP = "127.0.0.1:" + PORT;

    @Inject DdlConfig config;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka("start");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", BOOTSTRAP))) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing =
                    List.of(Topics.TABLE_DEFINITIONS, Topics.DDL_RESULTS, Topics.LIFECYCLE_COMMANDS)
                            .stream()
                            .filter(topic -> !existing.contains(topic))
                            .map(topic -> new NewTopic(topic, 1, (short) 1))
                            .toList();
            admin.createTopics(missing).all().get();
        }
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka("stop");
    }

    @Test
    void aChangeTheBrokerDoesNotTakeIsRefusedAsRetryableAndSucceedsWhenSentAgain()
            throws Exception {
        DdlRuntime runtime = new DdlRuntime();
        runtime.start(
                Map.of("bootstrap.servers", BOOTSTRAP, "delivery.timeout.ms", "4000"),
                "ddl-service",
                PlannerSettings.defaults(),
                config,
                Clock.systemUTC(),
                new PlanProjection());
        await().atMost(Duration.ofSeconds(60)).until(runtime::ready);
        String db = "outage_" + System.nanoTime();
        assertThat(
                        runtime.withService(
                                        s ->
                                                s.execute(
                                                        "before-" + db,
                                                        "CREATE TABLE "
                                                                + db
                                                                + ".a (id BIGINT) WITH ('connector'"
                                                                + " = 'datagen')",
                                                        CALLER))
                                .status())
                .isEqualTo(StatementResult.Status.SUCCEEDED);

        kafka("stop");
        String create = "CREATE TABLE " + db + ".b (id BIGINT) WITH ('connector' = 'datagen')";
        StatementResult refused =
                runtime.withService(s -> s.execute("during-" + db, create, CALLER));

        assertThat(refused.status()).isEqualTo(StatementResult.Status.FAILED);
        assertThat(refused.error().reason()).isEqualTo("BrokerUnavailable");
        assertThat(refused.error().message())
                .contains("not applied")
                .contains(Topics.TABLE_DEFINITIONS);
        assertThat(runtime.ready()).as("not ready while the catalog is read back").isFalse();

        kafka("start");
        await().atMost(Duration.ofSeconds(90)).until(runtime::ready);
        assertThat(
                        runtime.withService(
                                        s ->
                                                s.execute(
                                                        "show-" + System.nanoTime(),
                                                        "SHOW TABLES FROM " + db,
                                                        CALLER))
                                .rows())
                .as("the refused change was not applied")
                .containsExactly(List.of("default_catalog." + db + ".a", "SOURCE_TABLE"));
        assertThat(runtime.withService(s -> s.execute("during-" + db, create, CALLER)).status())
                .as("the same request, sent again")
                .isEqualTo(StatementResult.Status.SUCCEEDED);
        assertThat(
                        runtime.withService(
                                        s ->
                                                s.execute(
                                                        "show-" + System.nanoTime(),
                                                        "SHOW TABLES FROM " + db,
                                                        CALLER))
                                .rows())
                .containsExactly(
                        List.of("default_catalog." + db + ".a", "SOURCE_TABLE"),
                        List.of("default_catalog." + db + ".b", "SOURCE_TABLE"));
    }

    private static void kafka(String command) throws Exception {
        Files.createDirectories(RUN_DIR);
        ProcessBuilder process =
                new ProcessBuilder("bash", ROOT.resolve("bin/kafka").toString(), command)
                        .inheritIO();
        process.environment().put("MT_RUN_DIR", RUN_DIR.toString());
        process.environment().put("MT_KAFKA_PORT", String.valueOf(PORT));
        process.environment().put("MT_KAFKA_CONTROLLER_PORT", String.valueOf(PORT + 1));
        int exit = process.start().waitFor();
        assertThat(exit).as("bin/kafka " + command).isZero();
    }
}
