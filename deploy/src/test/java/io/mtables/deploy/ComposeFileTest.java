package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docker-compose.yml: what bin/run gives, each service configured by the variables it reads. */
class ComposeFileTest {

    private static final Path ROOT = Yaml.root();
    private final JsonNode compose = ComposeFile.read(ROOT.resolve("docker-compose.yml"));
    private final Set<String> serviceVariables = ConfigKeys.services(ROOT);
    private final Set<String> oracleVariables = ConfigKeys.oracle(ROOT);

    @Test
    void theComposeFileHoldsTogether() {
        assertThat(ComposeFile.problems(compose, ROOT, serviceVariables, oracleVariables))
                .isEmpty();
    }

    @Test
    void itRunsWhatBinRunRunsTheServicesAfterAHealthyBroker() {
        assertThat(compose.path("services").fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder(
                        "kafka",
                        "postgres",
                        "objectstore",
                        "objectstore-bucket",
                        "flink-jobmanager",
                        "flink-taskmanager",
                        "demo-prepare",
                        "ddl-service",
                        "planner-service",
                        "refresh-scheduler-service",
                        "job-manager-service",
                        "cdc-capture-service",
                        "demo-declare",
                        "prometheus",
                        "grafana");
        for (String service : ConfigKeys.SERVICES) {
            assertThat(
                            compose.path("services")
                                    .path(service)
                                    .path("depends_on")
                                    .path("kafka")
                                    .path("condition")
                                    .asText())
                    .as(service)
                    .isEqualTo("service_healthy");
            assertThat(
                            compose.path("services")
                                    .path(service)
                                    .path("environment")
                                    .path("KAFKA_BOOTSTRAP_SERVERS")
                                    .asText())
                    .as(service)
                    .isEqualTo("kafka:9092");
        }
        JsonNode jobManager =
                compose.path("services").path("job-manager-service").path("environment");
        assertThat(jobManager.path("MT_FLINK_TARGET").asText()).isEqualTo("remote");
        assertThat(jobManager.path("MT_FLINK_REST_ADDRESS").asText())
                .isEqualTo("flink-jobmanager:8081");
        // State on the object store, never on a volume two containers share.
        for (String reader : List.of("ddl-service", "job-manager-service")) {
            JsonNode service = compose.path("services").path(reader);
            assertThat(service.path("environment").path("MT_PAIMON_WAREHOUSE").asText())
                    .as(reader)
                    .startsWith("s3://");
            assertThat(service.path("environment").path("MT_S3_ENDPOINT").asText())
                    .as(reader)
                    .isEqualTo("http://objectstore:9000");
            assertThat(service.path("volumes").isMissingNode())
                    .as(reader + " mounts nothing")
                    .isTrue();
        }
        assertThat(jobManager.path("MT_FLINK_CHECKPOINT_DIR").asText()).startsWith("s3://");
        assertThat(
                        compose.path("services")
                                .path("flink-taskmanager")
                                .path("environment")
                                .path("FLINK_PROPERTIES")
                                .asText())
                .contains("s3.endpoint: http://objectstore:9000");
        assertThat(
                        compose.path("services")
                                .path("cdc-capture-service")
                                .path("depends_on")
                                .path("demo-prepare")
                                .path("condition")
                                .asText())
                .as("the demo's tables exist before the capture makes its publication")
                .isEqualTo("service_completed_successfully");
    }

    /**
     * Only ddl-service's door is published (and Grafana, on the host's loopback): not PostgreSQL,
     * not Prometheus, not Flink's REST port (where a jar upload would run code beside the object
     * store's keys); Flink takes no jars.
     */
    @Test
    void onlyTheFrontDoorIsPublishedAndFlinkTakesNoJars() {
        var services = compose.path("services");
        services.fieldNames()
                .forEachRemaining(
                        name ->
                                assertThat(services.path(name).path("ports").toString())
                                        .as(name + " publishes")
                                        .isEqualTo(
                                                switch (name) {
                                                    case "ddl-service" ->
                                                            "[\"8081:8081\",\"127.0.0.1:5433:5433\"]";
                                                    case "grafana" -> "[\"127.0.0.1:3000:3000\"]";
                                                    default -> "";
                                                }));
        assertThat(
                        services.path("flink-jobmanager")
                                .path("environment")
                                .path("FLINK_PROPERTIES")
                                .asText())
                .contains("web.submit.enable: false", "web.cancel.enable: false");
    }

    @Test
    void aBrokenCopyIsCaught() {
        ObjectNode broken = compose.deepCopy();
        ObjectNode planner = (ObjectNode) broken.path("services").path("planner-service");
        ((ObjectNode) planner.path("environment")).put("MT_PLANER_TIME_ZONE", "UTC");
        ((ObjectNode) planner.path("depends_on"))
                .putObject("zookeeper")
                .put("condition", "service_healthy");
        ((ObjectNode) broken.path("services").path("ddl-service").path("depends_on").path("kafka"))
                .put("condition", "service_ready");
        ((ObjectNode) broken.path("services").path("demo-declare").path("depends_on"))
                .putObject("flink-taskmanager")
                .put("condition", "service_healthy");
        ((ObjectNode)
                        broken.path("services")
                                .path("job-manager-service")
                                .path("build")
                                .path("args"))
                .put("SERVICE", "job-manager");

        assertThat(ComposeFile.problems(broken, ROOT, serviceVariables, oracleVariables))
                .containsExactlyInAnyOrder(
                        "planner-service: environment variable MT_PLANER_TIME_ZONE is not a setting"
                                + " it reads",
                        "planner-service: depends on zookeeper, which is not a service",
                        "ddl-service: condition service_ready on kafka is not one of "
                                + Set.of(
                                        "service_started",
                                        "service_healthy",
                                        "service_completed_successfully"),
                        "demo-declare: waits for flink-taskmanager to be healthy, which has no"
                                + " health check",
                        "job-manager-service: SERVICE job-manager is not one of "
                                + ConfigKeys.SERVICES);
    }

    @Test
    void everyVariableTheManifestsSetIsASettingTheServicesRead() {
        JsonNode config = Yaml.document(ROOT.resolve("k8s/base/config.yaml"));
        config.path("data")
                .fieldNames()
                .forEachRemaining(
                        variable ->
                                assertThat(serviceVariables)
                                        .as("k8s/base/config.yaml")
                                        .contains(variable));
        for (String service : ConfigKeys.SERVICES) {
            for (JsonNode document :
                    Yaml.documents(ROOT.resolve("k8s/base/" + service + ".yaml"))) {
                for (JsonNode env :
                        document.path("spec")
                                .path("template")
                                .path("spec")
                                .path("containers")
                                .path(0)
                                .path("env")) {
                    assertThat(serviceVariables)
                            .as("k8s/base/%s.yaml", service)
                            .contains(env.path("name").asText());
                }
            }
        }
        assertThat(serviceVariables).doesNotContain("MT_PLANER_TIME_ZONE");
    }
}
