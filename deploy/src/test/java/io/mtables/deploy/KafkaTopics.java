package io.mtables.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.mtables.schemas.TopicSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The KafkaTopic resources against the topics of the contracts (schemas' Topics.ALL). */
final class KafkaTopics {

    private KafkaTopics() {}

    /**
     * What differs: a contract topic with no KafkaTopic, or with another cleanup policy or
     * partition count than the services would give it.
     */
    static List<String> problems(
            List<TopicSpec> contracts, List<JsonNode> manifests, int partitions) {
        Map<String, JsonNode> byTopic =
                manifests.stream()
                        .filter(m -> m.path("kind").asText().equals("KafkaTopic"))
                        .collect(
                                Collectors.toMap(
                                        m ->
                                                m.path("spec")
                                                        .path("topicName")
                                                        .asText(
                                                                m.path("metadata")
                                                                        .path("name")
                                                                        .asText()),
                                        Function.identity()));
        List<String> problems = new ArrayList<>();
        for (TopicSpec contract : contracts) {
            JsonNode topic = byTopic.get(contract.name());
            if (topic == null) {
                problems.add(contract.name() + ": no KafkaTopic");
                continue;
            }
            String policy = topic.path("spec").path("config").path("cleanup.policy").asText();
            if (!policy.equals(contract.retention().cleanupPolicy())) {
                problems.add(
                        contract.name()
                                + ": cleanup.policy is '"
                                + policy
                                + "'; the contract says '"
                                + contract.retention().cleanupPolicy()
                                + "'");
            }
            int expected = contract.partitionsOr(partitions);
            if (topic.path("spec").path("partitions").asInt() != expected) {
                problems.add(
                        contract.name()
                                + ": "
                                + topic.path("spec").path("partitions").asInt()
                                + " partitions; the services create "
                                + expected);
            }
        }
        return problems;
    }
}
