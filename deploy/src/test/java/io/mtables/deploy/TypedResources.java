package io.mtables.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;

/**
 * A manifest read into the typed model of its kind: Kubernetes' own objects through fabric8's model
 * (the Prometheus Operator's too), Strimzi's custom resources through Strimzi's API artifact, the
 * Flink operator's through its API artifact. A field the model does not know is a problem (the
 * models keep such fields aside rather than failing, so every object read is searched for them); so
 * is a kind we do not model, and a value of the wrong type.
 */
final class TypedResources {

    private static final Map<String, Class<?>> KINDS =
            Map.ofEntries(
                    Map.entry(
                            "apps/v1/Deployment",
                            io.fabric8.kubernetes.api.model.apps.Deployment.class),
                    Map.entry("v1/Service", io.fabric8.kubernetes.api.model.Service.class),
                    Map.entry("v1/ConfigMap", io.fabric8.kubernetes.api.model.ConfigMap.class),
                    Map.entry("v1/Secret", io.fabric8.kubernetes.api.model.Secret.class),
                    Map.entry(
                            "v1/PersistentVolumeClaim",
                            io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class),
                    Map.entry("batch/v1/Job", io.fabric8.kubernetes.api.model.batch.v1.Job.class),
                    Map.entry(
                            "networking.k8s.io/v1/NetworkPolicy",
                            io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class),
                    Map.entry(
                            "policy/v1/PodDisruptionBudget",
                            io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class),
                    Map.entry(
                            "kafka.strimzi.io/v1beta2/Kafka",
                            io.strimzi.api.kafka.model.kafka.Kafka.class),
                    Map.entry(
                            "kafka.strimzi.io/v1beta2/KafkaNodePool",
                            io.strimzi.api.kafka.model.nodepool.KafkaNodePool.class),
                    Map.entry(
                            "kafka.strimzi.io/v1beta2/KafkaTopic",
                            io.strimzi.api.kafka.model.topic.KafkaTopic.class),
                    Map.entry(
                            "kafka.strimzi.io/v1beta2/KafkaUser",
                            io.strimzi.api.kafka.model.user.KafkaUser.class),
                    Map.entry(
                            "monitoring.coreos.com/v1/ServiceMonitor",
                            io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor.class),
                    Map.entry(
                            "monitoring.coreos.com/v1/PrometheusRule",
                            io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule.class),
                    Map.entry("flink.apache.org/v1beta1/FlinkDeployment", FlinkDeployment.class));

    /**
     * The Flink versions the operator's API artifact served here knows stop at 1.20; ours is 2.x.
     */
    private static final String FLINK_VERSION_FIELD = "flinkVersion";

    private TypedResources() {}

    /** What is wrong with one manifest document, each as "where: what"; empty when nothing is. */
    static List<String> problems(JsonNode document, String where) {
        String key = document.path("apiVersion").asText() + "/" + document.path("kind").asText();
        Class<?> type = KINDS.get(key);
        if (type == null) {
            return List.of(
                    where
                            + ": kind "
                            + key
                            + " is not one this system deploys; known: "
                            + KINDS.keySet());
        }
        JsonNode readable = document.deepCopy();
        List<String> problems = new ArrayList<>();
        if (type == FlinkDeployment.class && readable.path("spec").has(FLINK_VERSION_FIELD)) {
            String version = readable.path("spec").path(FLINK_VERSION_FIELD).asText();
            if (!version.matches("v\\d+_\\d+")) {
                problems.add(
                        where
                                + ": spec.flinkVersion must be v<major>_<minor>, such as v2_2; was "
                                + version);
            }
            ((ObjectNode) readable.path("spec")).remove(FLINK_VERSION_FIELD);
        }
        Object typed;
        try {
            typed = Yaml.MAPPER.treeToValue(readable, type);
        } catch (Exception e) {
            problems.add(
                    where
                            + ": not a valid "
                            + key
                            + ": "
                            + e.getMessage().lines().findFirst().orElse(""));
            return problems;
        }
        unknownFields(
                typed,
                document.path("kind").asText()
                        + " "
                        + document.path("metadata").path("name").asText(),
                problems,
                0);
        return problems.stream().map(p -> p.startsWith(where) ? p : where + ": " + p).toList();
    }

    /** The kind a document is, as apiVersion/kind. */
    static String kind(JsonNode document) {
        return document.path("apiVersion").asText() + "/" + document.path("kind").asText();
    }

    private static void unknownFields(Object value, String path, List<String> problems, int depth) {
        if (value == null || depth > 30) {
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> unknownFields(v, path + "." + k, problems, depth + 1));
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", problems, depth + 1);
            }
            return;
        }
        Class<?> type = value.getClass();
        if (type.isEnum() || !isModel(type)) {
            return;
        }
        for (Method getter : type.getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get")
                    || getter.getName().equals("getClass")) {
                continue;
            }
            Object field;
            try {
                field = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    problems.add(
                            path
                                    + ": field(s) "
                                    + extra.keySet()
                                    + " unknown to "
                                    + type.getSimpleName());
                }
                continue;
            }
            unknownFields(
                    field,
                    path
                            + "."
                            + Character.toLowerCase(getter.getName().charAt(3))
                            + getter.getName().substring(4),
                    problems,
                    depth + 1);
        }
    }

    private static boolean isModel(Class<?> type) {
        String name = type.getName();
        return name.startsWith("io.fabric8.kubernetes.api.model")
                || name.startsWith("io.fabric8.openshift.api.model.monitoring")
                || name.startsWith("io.strimzi.api")
                || name.startsWith("org.apache.flink.kubernetes.operator.api");
    }
}
