package io.mtables.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * docker-compose.yml's structure, checked without a container engine: the Compose specification's
 * JSON schema is not served here, so these are the rules of the specification the file relies on
 * (depends_on targets and conditions, builds, named volumes), and ours: every variable a container
 * is given is one it reads, and every service waited for as healthy has a health check.
 */
final class ComposeFile {

    private static final Set<String> CONDITIONS =
            Set.of("service_started", "service_healthy", "service_completed_successfully");

    /** Images we build with a HEALTHCHECK of their own (deploy/Dockerfile). */
    private static final String SERVICE_DOCKERFILE = "deploy/Dockerfile";

    private ComposeFile() {}

    /** The file read as Compose reads it: YAML anchors, aliases and merge keys (<<) resolved. */
    static JsonNode read(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            Map<String, Object> compose = new org.yaml.snakeyaml.Yaml().load(reader);
            return Yaml.MAPPER.valueToTree(compose);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> problems(
            JsonNode compose,
            Path root,
            Set<String> serviceVariables,
            Set<String> oracleVariables) {
        List<String> problems = new ArrayList<>();
        JsonNode services = compose.path("services");
        for (Iterator<Map.Entry<String, JsonNode>> it = services.fields(); it.hasNext(); ) {
            var entry = it.next();
            String name = entry.getKey();
            JsonNode service = entry.getValue();
            if (!service.has("image") && !service.has("build")) {
                problems.add(name + ": neither image nor build");
            }
            problems.addAll(buildProblems(name, service.path("build"), root));
            for (Iterator<Map.Entry<String, JsonNode>> deps = service.path("depends_on").fields();
                    deps.hasNext(); ) {
                var dependency = deps.next();
                String condition =
                        dependency.getValue().path("condition").asText("service_started");
                if (!services.has(dependency.getKey())) {
                    problems.add(
                            name
                                    + ": depends on "
                                    + dependency.getKey()
                                    + ", which is not a service");
                } else if (!CONDITIONS.contains(condition)) {
                    problems.add(
                            name
                                    + ": condition "
                                    + condition
                                    + " on "
                                    + dependency.getKey()
                                    + " is not one of "
                                    + CONDITIONS);
                } else if (condition.equals("service_healthy")
                        && !healthChecked(services.path(dependency.getKey()))) {
                    problems.add(
                            name
                                    + ": waits for "
                                    + dependency.getKey()
                                    + " to be healthy, which has no health check");
                }
            }
            Set<String> reads =
                    ConfigKeys.SERVICES.contains(name)
                            ? serviceVariables
                            : name.startsWith("demo") ? oracleVariables : null;
            if (reads != null) {
                service.path("environment")
                        .fieldNames()
                        .forEachRemaining(
                                variable -> {
                                    if (!reads.contains(variable)) {
                                        problems.add(
                                                name
                                                        + ": environment variable "
                                                        + variable
                                                        + " is not a setting it reads");
                                    }
                                });
            }
            for (JsonNode volume : service.path("volumes")) {
                String source = volume.asText().split(":")[0];
                if (!source.startsWith(".")
                        && !source.startsWith("/")
                        && !compose.path("volumes").has(source)) {
                    problems.add(name + ": volume " + source + " is not declared under volumes");
                }
            }
        }
        return problems;
    }

    private static List<String> buildProblems(String name, JsonNode build, Path root) {
        if (build.isMissingNode()) {
            return List.of();
        }
        Path context =
                root.resolve(
                        build.isTextual() ? build.asText() : build.path("context").asText("."));
        Path dockerfile = context.resolve(build.path("dockerfile").asText("Dockerfile"));
        List<String> problems = new ArrayList<>();
        if (!Files.isRegularFile(dockerfile)) {
            problems.add(name + ": no Dockerfile at " + root.relativize(dockerfile));
        }
        JsonNode service = build.path("args").path("SERVICE");
        if (!service.isMissingNode() && !ConfigKeys.SERVICES.contains(service.asText())) {
            problems.add(
                    name
                            + ": SERVICE "
                            + service.asText()
                            + " is not one of "
                            + ConfigKeys.SERVICES);
        }
        return problems;
    }

    private static boolean healthChecked(JsonNode service) {
        return service.has("healthcheck")
                || service.path("build").path("dockerfile").asText().equals(SERVICE_DOCKERFILE);
    }
}
