package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mtables.messaging.MessagingConfig;
import io.mtables.schemas.KafkaPrincipals;
import io.mtables.schemas.TopicSpec;
import io.mtables.schemas.Topics;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * k8s/: every manifest typed and valid, the overlays patching what the base has, the topics as the
 * contracts say.
 */
class KubernetesManifestsTest {

    private static final Path K8S = Yaml.root().resolve("k8s");
    private static final Path BASE = K8S.resolve("base");

    @Test
    void everyBaseManifestIsAValidResourceOfItsKind() {
        List<String> problems = new ArrayList<>();
        for (Path file : baseResources()) {
            for (JsonNode document : Yaml.documents(file)) {
                problems.addAll(TypedResources.problems(document, K8S.relativize(file).toString()));
            }
        }
        assertThat(problems).isEmpty();
        assertThat(baseDocuments())
                .extracting(TypedResources::kind)
                .contains(
                        "kafka.strimzi.io/v1beta2/Kafka",
                        "kafka.strimzi.io/v1beta2/KafkaNodePool",
                        "flink.apache.org/v1beta1/FlinkDeployment",
                        "policy/v1/PodDisruptionBudget");
    }

    @Test
    void aMisspelledFieldOrAWrongTypeIsCaught() {
        Path broken = Yaml.root().resolve("deploy/src/test/resources/broken/deployment.yaml");
        List<String> problems = new ArrayList<>();
        for (JsonNode document : Yaml.documents(broken)) {
            problems.addAll(TypedResources.problems(document, "broken/deployment.yaml"));
        }
        assertThat(problems)
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .contains("[replica]")
                                        .contains("unknown to DeploymentSpec"))
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .contains("[readinesProbe]")
                                        .contains("unknown to Container"))
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .contains(
                                                "not a valid kafka.strimzi.io/v1beta2/KafkaTopic"))
                .anySatisfy(
                        p -> assertThat(p).contains("spec.flinkVersion must be v<major>_<minor>"))
                .anySatisfy(
                        p -> assertThat(p).contains("kind v1/Pod is not one this system deploys"));
    }

    @Test
    void everyTopicOfTheContractsHasAKafkaTopicWithItsCleanupPolicyAndPartitions()
            throws Exception {
        int partitions =
                Integer.parseInt(
                        MessagingConfig.class
                                .getMethod("topicPartitions")
                                .getAnnotation(WithDefault.class)
                                .value());
        assertThat(KafkaTopics.problems(Topics.ALL, baseDocuments(), partitions)).isEmpty();

        // The check fails on a copy where a compacted topic is declared with deletion, and one is
        // missing.
        List<TopicSpec> contracts = new ArrayList<>(Topics.ALL);
        contracts.add(new TopicSpec("mt.not.declared", TopicSpec.Retention.COMPACT));
        List<JsonNode> wrong = new ArrayList<>();
        for (JsonNode document : baseDocuments()) {
            JsonNode copy = document.deepCopy();
            if (copy.path("spec").path("topicName").asText().equals(Topics.TABLE_DEFINITIONS)) {
                ((ObjectNode) copy.path("spec").path("config")).put("cleanup.policy", "delete");
            }
            wrong.add(copy);
        }
        assertThat(KafkaTopics.problems(contracts, wrong, partitions))
                .containsExactly(
                        "mt.table.definitions: cleanup.policy is 'delete'; the contract says"
                                + " 'compact'",
                        "mt.not.declared: no KafkaTopic");
    }

    @Test
    void everyPrincipalIsAKafkaUserWithItsAclsAndEveryServiceConnectsAsItsOwn() {
        assertThat(KafkaUsers.problems(KafkaPrincipals.ALL, baseDocuments())).isEmpty();

        JsonNode kafka =
                baseDocuments().stream()
                        .filter(d -> d.path("kind").asText().equals("Kafka"))
                        .findFirst()
                        .orElseThrow()
                        .path("spec")
                        .path("kafka");
        assertThat(kafka.path("authorization").path("type").asText())
                .as("the broker allows only what ACLs grant")
                .isEqualTo("simple");
        for (JsonNode listener : kafka.path("listeners")) {
            assertThat(listener.path("authentication").path("type").asText())
                    .as("listener " + listener.path("name").asText())
                    .isEqualTo("scram-sha-512");
            assertThat(listener.path("tls").asBoolean())
                    .as("listener " + listener.path("name").asText() + " speaks TLS")
                    .isTrue();
        }
        for (String service : ConfigKeys.SERVICES) {
            JsonNode secret =
                    baseDocuments().stream()
                            .filter(
                                    d ->
                                            d.path("kind").asText().equals("Deployment")
                                                    && d.path("metadata")
                                                            .path("name")
                                                            .asText()
                                                            .equals(service))
                            .flatMap(
                                    d ->
                                            java.util.stream.StreamSupport.stream(
                                                    d.at("/spec/template/spec/containers/0/env")
                                                            .spliterator(),
                                                    false))
                            .filter(e -> e.path("name").asText().equals("KAFKA_SASL_JAAS_CONFIG"))
                            .map(e -> e.at("/valueFrom/secretKeyRef"))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    service + " has no KAFKA_SASL_JAAS_CONFIG"));
            assertThat(secret.path("name").asText())
                    .as(service + " connects as its own principal")
                    .isEqualTo(service);
        }

        // The check fails on a user granted more than its contract, and on a principal without one.
        List<JsonNode> wrong = new ArrayList<>();
        for (JsonNode document : baseDocuments()) {
            JsonNode copy = document.deepCopy();
            if (copy.path("kind").asText().equals("KafkaUser")
                    && copy.at("/metadata/name").asText().equals("planner-service")) {
                ((ObjectNode) copy.at("/spec/authorization/acls/0/resource"))
                        .put("name", Topics.TABLE_DEFINITIONS);
            }
            if (!copy.at("/metadata/name").asText().equals("mt-client")) {
                wrong.add(copy);
            }
        }
        assertThat(KafkaUsers.problems(KafkaPrincipals.ALL, wrong))
                .containsExactly(
                        "planner-service: missing [TOPIC LITERAL mt.refresh.plans DESCRIBE,"
                                + " TOPIC LITERAL mt.refresh.plans READ, TOPIC LITERAL"
                                + " mt.refresh.plans WRITE]",
                        "planner-service: more than its contract [TOPIC LITERAL"
                                + " mt.table.definitions WRITE]",
                        "mt-client: no KafkaUser");
    }

    @Test
    void theOverlaysPatchOnlyWhatTheBaseHas() {
        Set<String> inBase = new HashSet<>();
        baseDocuments()
                .forEach(
                        d ->
                                inBase.add(
                                        d.path("kind").asText()
                                                + "/"
                                                + d.path("metadata").path("name").asText()));
        List<String> problems = new ArrayList<>();
        for (String overlay : List.of("dev", "prod")) {
            Path dir = K8S.resolve("overlays").resolve(overlay);
            JsonNode kustomization = Yaml.document(dir.resolve("kustomization.yaml"));
            for (JsonNode resource : kustomization.path("resources")) {
                Path path = dir.resolve(resource.asText());
                if (Files.isRegularFile(path)) {
                    // A resource of the overlay's own (the dev object store): valid, and not what
                    // the base has.
                    for (JsonNode document : Yaml.documents(path)) {
                        problems.addAll(
                                TypedResources.problems(
                                        document, overlay + "/" + resource.asText()));
                    }
                } else if (!Files.isDirectory(path)) {
                    problems.add(overlay + ": resource " + resource.asText() + " does not exist");
                }
            }
            for (JsonNode patch : kustomization.path("patches")) {
                if (patch.has("path")) {
                    for (JsonNode document :
                            Yaml.documents(dir.resolve(patch.path("path").asText()))) {
                        problems.addAll(
                                TypedResources.problems(
                                        document, overlay + "/" + patch.path("path").asText()));
                        String target =
                                document.path("kind").asText()
                                        + "/"
                                        + document.path("metadata").path("name").asText();
                        if (!inBase.contains(target)) {
                            problems.add(
                                    overlay
                                            + "/"
                                            + patch.path("path").asText()
                                            + ": patches "
                                            + target
                                            + ", which the base does not have");
                        }
                    }
                } else if (inBase.stream()
                        .noneMatch(
                                name ->
                                        name.startsWith(
                                                patch.path("target").path("kind").asText()
                                                        + "/"))) {
                    problems.add(
                            overlay
                                    + ": a patch targets kind "
                                    + patch.path("target").path("kind").asText()
                                    + ", which the base does not have");
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(K8S.resolve("overlays/prod/postgres.env.example"))
                .content()
                .contains("user=", "password=");
        assertThat(K8S.resolve("overlays/prod/object-store.env.example"))
                .content()
                .contains("access-key=", "secret-key=");
    }

    /**
     * The overlays as kustomize builds them (bin/kustomize, which fetches kustomize itself): every
     * object valid; each service probed on its health endpoints; the scheduler run twice and kept
     * by a disruption budget.
     */
    @Test
    void theBuiltOverlaysAreValidAndEveryServiceIsProbed() throws Exception {
        for (String overlay : List.of("dev", "prod")) {
            Path dir = K8S.resolve("overlays").resolve(overlay);
            // The credentials files are not in the repository: the examples stand in for them.
            List<Path> made = new ArrayList<>();
            List<String> secrets =
                    overlay.equals("prod")
                            ? List.of("postgres.env", "object-store.env", "admin-key.env")
                            : List.of("admin-key.env");
            for (String file : secrets) {
                if (!Files.exists(dir.resolve(file))) {
                    made.add(Files.copy(dir.resolve(file + ".example"), dir.resolve(file)));
                }
            }
            List<JsonNode> built;
            try {
                built = kustomize(dir);
            } finally {
                for (Path file : made) {
                    Files.delete(file);
                }
            }
            List<String> problems = new ArrayList<>();
            built.forEach(d -> problems.addAll(TypedResources.problems(d, overlay)));
            assertThat(problems).as(overlay).isEmpty();
            var deployments =
                    built.stream()
                            .filter(d -> d.path("kind").asText().equals("Deployment"))
                            .filter(
                                    d ->
                                            !d.path("metadata")
                                                    .path("name")
                                                    .asText()
                                                    .equals("mt-objectstore"))
                            .toList(); // dev's store is not ours to probe
            assertThat(built)
                    .as(overlay)
                    .filteredOn(
                            d -> d.path("metadata").path("name").asText().equals("mt-objectstore"))
                    .hasSize(overlay.equals("dev") ? 3 : 0);
            assertThat(deployments)
                    .as(overlay)
                    .extracting(d -> d.path("metadata").path("name").asText())
                    .containsExactlyInAnyOrder(
                            "ddl-service",
                            "planner-service",
                            "refresh-scheduler-service",
                            "job-manager-service",
                            "cdc-capture-service");
            for (JsonNode deployment : deployments) {
                JsonNode container =
                        deployment
                                .path("spec")
                                .path("template")
                                .path("spec")
                                .path("containers")
                                .get(0);
                assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
                        .isEqualTo("/q/health/ready");
                assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
                        .isEqualTo("/q/health/live");
                assertThat(container.path("resources").path("limits").path("memory").asText())
                        .isNotEmpty();
                // ddl-service answers /q/* on its management port only (docs/security.md).
                if (deployment.path("metadata").path("name").asText().equals("ddl-service")) {
                    assertThat(
                                    container
                                            .path("readinessProbe")
                                            .path("httpGet")
                                            .path("port")
                                            .asText())
                            .isEqualTo("management");
                    assertThat(container.path("env").toString())
                            .contains("MT_AUTH_SERVICE_ACCOUNTS_ADMIN_KEY_SHA256", "mt-admin-key");
                }
                assertThat(deployment.path("metadata").path("namespace").asText())
                        .isEqualTo(overlay.equals("dev") ? "mtables-dev" : "mtables");
            }
            // One instance active and one standing by, each kept by a disruption budget.
            List<String> replicated =
                    List.of(
                            "refresh-scheduler-service",
                            "ddl-service",
                            "planner-service",
                            "job-manager-service");
            assertThat(deployments)
                    .filteredOn(d -> replicated.contains(d.path("metadata").path("name").asText()))
                    .hasSize(4)
                    .allSatisfy(
                            d -> assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(2));
            assertThat(built)
                    .filteredOn(d -> d.path("kind").asText().equals("PodDisruptionBudget"))
                    .hasSize(4);
            // No volume is shared: the warehouse, checkpoints, savepoints and Flink's HA metadata
            // are on the object store.
            assertThat(built)
                    .filteredOn(d -> d.path("kind").asText().equals("PersistentVolumeClaim"))
                    .allSatisfy(
                            claim ->
                                    assertThat(claim.path("spec").path("accessModes").toString())
                                            .doesNotContain("ReadWriteMany"));
            JsonNode config =
                    built.stream()
                            .filter(d -> d.path("kind").asText().equals("ConfigMap"))
                            .findFirst()
                            .orElseThrow()
                            .path("data");
            JsonNode flink =
                    built.stream()
                            .filter(d -> d.path("kind").asText().equals("FlinkDeployment"))
                            .findFirst()
                            .orElseThrow()
                            .path("spec")
                            .path("flinkConfiguration");
            for (String key :
                    List.of(
                            "MT_PAIMON_WAREHOUSE",
                            "MT_FLINK_CHECKPOINT_DIR",
                            "MT_FLINK_SAVEPOINT_DIR")) {
                assertThat(config.path(key).asText()).as(overlay + " " + key).startsWith("s3://");
            }
            for (String key :
                    List.of(
                            "execution.checkpointing.dir",
                            "execution.checkpointing.savepoint-dir",
                            "high-availability.storageDir")) {
                assertThat(flink.path(key).asText()).as(overlay + " " + key).startsWith("s3://");
            }
            assertThat(flink.path("s3.endpoint").asText())
                    .as(overlay + ": Flink and the services reach the same store")
                    .isEqualTo(config.path("MT_S3_ENDPOINT").asText());
        }
    }

    private static List<JsonNode> kustomize(Path overlay) throws IOException, InterruptedException {
        Process process =
                new ProcessBuilder(
                                Yaml.root().resolve("bin/kustomize").toString(),
                                "build",
                                overlay.toString())
                        .redirectErrorStream(false)
                        .start();
        byte[] out = process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("bin/kustomize build %s: %s", overlay, err).isZero();
        Path file = Files.createTempFile("kustomized", ".yaml");
        try {
            Files.write(file, out);
            return Yaml.documents(file);
        } finally {
            Files.delete(file);
        }
    }

    /**
     * The network (docs/security.md): nothing reaches a pod unless a policy lets it; every port a
     * service listens on is let in from somewhere; only ddl-service's statement ports (REST and
     * PostgreSQL's) from anywhere; the Flink cluster's REST port (it runs any jar it is sent) from
     * the job manager and the operator alone; Kafka's listener from the services and Flink.
     */
    @Test
    void onlyTheStatementPortsAreOpenToAllAndEveryOtherPortToItsPeers() {
        List<JsonNode> policies =
                baseDocuments().stream()
                        .filter(d -> d.path("kind").asText().equals("NetworkPolicy"))
                        .toList();
        assertThat(policies)
                .as("a policy that selects every pod and lets nothing in")
                .anySatisfy(
                        p -> {
                            assertThat(p.path("spec").path("podSelector").size()).isZero();
                            assertThat(p.path("spec").path("policyTypes").toString())
                                    .contains("Ingress");
                            assertThat(p.path("spec").has("ingress")).isFalse();
                        });
        List<String> openToAll = new ArrayList<>();
        for (JsonNode deployment :
                baseDocuments().stream()
                        .filter(d -> d.path("kind").asText().equals("Deployment"))
                        .toList()) {
            String name = deployment.path("metadata").path("name").asText();
            JsonNode labels =
                    deployment.path("spec").path("template").path("metadata").path("labels");
            for (JsonNode port :
                    deployment
                            .path("spec")
                            .path("template")
                            .path("spec")
                            .path("containers")
                            .get(0)
                            .path("ports")) {
                int number = port.path("containerPort").asInt();
                List<JsonNode> rules = new ArrayList<>();
                for (JsonNode policy : policies) {
                    if (!selects(policy.path("spec").path("podSelector"), labels)) {
                        continue;
                    }
                    for (JsonNode rule : policy.path("spec").path("ingress")) {
                        if (admits(rule, number)) {
                            rules.add(rule);
                        }
                    }
                }
                assertThat(rules)
                        .as(name + "'s port " + number + " is let in by a policy")
                        .isNotEmpty();
                if (rules.stream().anyMatch(KubernetesManifestsTest::fromAnywhere)) {
                    openToAll.add(name + ":" + number);
                }
            }
        }
        assertThat(openToAll).containsExactlyInAnyOrder("ddl-service:8443", "ddl-service:5433");

        JsonNode flink =
                policies.stream()
                        .filter(
                                p ->
                                        p.path("spec")
                                                .path("podSelector")
                                                .path("matchLabels")
                                                .path("app")
                                                .asText()
                                                .equals("mt-flink"))
                        .findFirst()
                        .orElseThrow();
        for (JsonNode rule : flink.path("spec").path("ingress")) {
            assertThat(rule.has("from")).as("Flink's cluster is never open to all").isTrue();
            if (admits(rule, 8081) && rule.has("ports")) {
                assertThat(rule.path("from").toString())
                        .contains("job-manager-service")
                        .contains("flink-kubernetes-operator")
                        .doesNotContain("ddl-service");
            }
        }
        JsonNode kafka =
                baseDocuments().stream()
                        .filter(d -> d.path("kind").asText().equals("Kafka"))
                        .findFirst()
                        .orElseThrow();
        for (JsonNode listener : kafka.path("spec").path("kafka").path("listeners")) {
            String peers = listener.path("networkPolicyPeers").toString();
            assertThat(peers)
                    .as("listener " + listener.path("name").asText() + "'s peers")
                    .contains(
                            "ddl-service",
                            "planner-service",
                            "refresh-scheduler-service",
                            "job-manager-service",
                            "cdc-capture-service",
                            "mt-flink");
        }
    }

    /** Whether {@code selector} (matchLabels, matchExpressions with In) selects {@code labels}. */
    private static boolean selects(JsonNode selector, JsonNode labels) {
        var expected = selector.path("matchLabels").fields();
        while (expected.hasNext()) {
            var label = expected.next();
            if (!labels.path(label.getKey()).asText().equals(label.getValue().asText())) {
                return false;
            }
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            if (!expression.path("operator").asText().equals("In")) {
                throw new AssertionError("only In is read here: " + expression);
            }
            boolean in = false;
            for (JsonNode value : expression.path("values")) {
                in |= value.asText().equals(labels.path(expression.path("key").asText()).asText());
            }
            if (!in) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an ingress {@code rule} lets in any pod or address: no {@code from}, a peer of every
     * namespace with no pod selector, or an address block of the whole internet.
     */
    private static boolean fromAnywhere(JsonNode rule) {
        if (!rule.has("from")) {
            return true;
        }
        for (JsonNode peer : rule.path("from")) {
            boolean everyNamespace =
                    peer.has("namespaceSelector")
                            && peer.path("namespaceSelector").isEmpty()
                            && !peer.has("podSelector");
            String cidr = peer.path("ipBlock").path("cidr").asText();
            if (everyNamespace || cidr.equals("0.0.0.0/0") || cidr.equals("::/0")) {
                return true;
            }
        }
        return false;
    }

    /** Whether an ingress {@code rule} lets in {@code port} (a rule without ports lets in all). */
    private static boolean admits(JsonNode rule, int port) {
        if (!rule.has("ports")) {
            return true;
        }
        for (JsonNode allowed : rule.path("ports")) {
            if (allowed.path("port").asInt() == port) {
                return true;
            }
        }
        return false;
    }

    /** The files the base's kustomization lists. */
    private static List<Path> baseResources() {
        List<Path> files = new ArrayList<>();
        Yaml.document(BASE.resolve("kustomization.yaml"))
                .path("resources")
                .forEach(r -> files.add(BASE.resolve(r.asText())));
        return files;
    }

    private static List<JsonNode> baseDocuments() {
        List<JsonNode> documents = new ArrayList<>();
        baseResources().forEach(file -> documents.addAll(Yaml.documents(file)));
        return documents;
    }
}
