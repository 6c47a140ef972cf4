package io.mtables.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.mtables.messaging.KafkaAcls;
import io.mtables.schemas.KafkaPrincipals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;

/**
 * The KafkaUser resources against the principals of the contracts (schemas' KafkaPrincipals, made
 * into ACLs by KafkaAcls): the same rights, no more and no fewer.
 */
final class KafkaUsers {

    private KafkaUsers() {}

    /** What differs: a principal with no KafkaUser, or with other rights than its ACLs. */
    static List<String> problems(
            List<KafkaPrincipals.Principal> principals, List<JsonNode> manifests) {
        Map<String, JsonNode> byName =
                manifests.stream()
                        .filter(m -> m.path("kind").asText().equals("KafkaUser"))
                        .collect(
                                Collectors.toMap(
                                        m -> m.path("metadata").path("name").asText(),
                                        Function.identity()));
        List<String> problems = new ArrayList<>();
        for (KafkaPrincipals.Principal principal : principals) {
            JsonNode user = byName.get(principal.name());
            if (user == null) {
                problems.add(principal.name() + ": no KafkaUser");
                continue;
            }
            if (!user.path("spec")
                    .path("authentication")
                    .path("type")
                    .asText()
                    .equals("scram-sha-512")) {
                problems.add(principal.name() + ": not authenticated by scram-sha-512");
            }
            Set<String> declared = rights(user);
            Set<String> contract = rights(KafkaAcls.of(principal));
            Set<String> missing = new TreeSet<>(contract);
            missing.removeAll(declared);
            Set<String> extra = new TreeSet<>(declared);
            extra.removeAll(contract);
            if (!missing.isEmpty()) {
                problems.add(principal.name() + ": missing " + missing);
            }
            if (!extra.isEmpty()) {
                problems.add(principal.name() + ": more than its contract " + extra);
            }
        }
        return problems;
    }

    /** A KafkaUser's ACL rules as "TOPIC LITERAL mt.ddl.results WRITE" lines. */
    private static Set<String> rights(JsonNode user) {
        Set<String> rights = new TreeSet<>();
        for (JsonNode rule : user.path("spec").path("authorization").path("acls")) {
            JsonNode resource = rule.path("resource");
            String type =
                    switch (resource.path("type").asText()) {
                        case "transactionalId" -> "TRANSACTIONAL_ID";
                        default -> resource.path("type").asText().toUpperCase(Locale.ROOT);
                    };
            String pattern =
                    resource.path("patternType").asText("literal").equals("prefix")
                            ? "PREFIXED"
                            : "LITERAL";
            for (JsonNode operation : rule.path("operations")) {
                rights.add(
                        type
                                + " "
                                + pattern
                                + " "
                                + resource.path("name").asText()
                                + " "
                                + operation
                                        .asText()
                                        .replaceAll("([a-z])([A-Z])", "$1_$2")
                                        .toUpperCase(Locale.ROOT));
            }
        }
        return rights;
    }

    private static Set<String> rights(List<AclBinding> bindings) {
        Set<String> rights = new TreeSet<>();
        for (AclBinding binding : bindings) {
            rights.add(
                    binding.pattern().resourceType()
                            + " "
                            + binding.pattern().patternType()
                            + " "
                            + binding.pattern().name()
                            + " "
                            + binding.entry().operation());
        }
        return rights;
    }
}
