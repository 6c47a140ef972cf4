package io.mtables.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The environment variables a container of ours reads, as Quarkus maps them (mt.flink.target is
 * MT_FLINK_TARGET): every key of the services' application.properties, every variable they refer to
 * (${KAFKA_BOOTSTRAP_SERVERS:...}), every @ConfigProperty name in their code, and every key of the
 * configuration tables in docs/ (where the @ConfigMapping interfaces' keys are documented).
 */
final class ConfigKeys {

    static final Set<String> SERVICES =
            Set.of(
                    "ddl-service",
                    "planner-service",
                    "refresh-scheduler-service",
                    "job-manager-service",
                    "cdc-capture-service");

    /** Read by the images themselves (deploy/Dockerfile), not by Quarkus. */
    private static final Set<String> IMAGE_VARIABLES = Set.of("PORT", "HEALTH_PORT", "JAVA_OPTS");

    private static final Pattern PROPERTY_LINE =
            Pattern.compile("^(?:%[\\w-]+\\.)?([\\w.\\-\"]+)\\s*=", Pattern.MULTILINE);
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)");
    private static final Pattern CONFIG_PROPERTY =
            Pattern.compile("ConfigProperty\\(name = \"([^\"]+)\"");
    private static final Pattern DOCUMENTED =
            Pattern.compile("^\\| `([a-z][\\w.\\-\"]+)` \\|", Pattern.MULTILINE);
    private static final Pattern GETENV = Pattern.compile("(?:getenv|env)\\(\"([A-Z][A-Z0-9_]*)\"");

    /**
     * picocli's default from the environment: {@code ${env:NAME}} or {@code ${env:NAME:-value}}.
     */
    private static final Pattern PICOCLI_ENV = Pattern.compile("\\$\\{env:([A-Z][A-Z0-9_]*)");

    private ConfigKeys() {}

    /** What the five services read, as environment variables. */
    static Set<String> services(Path root) {
        Set<String> variables = new TreeSet<>(IMAGE_VARIABLES);
        for (String module :
                Stream.concat(SERVICES.stream(), Stream.of("service-messaging")).toList()) {
            Path properties =
                    root.resolve(module).resolve("src/main/resources/application.properties");
            Path messagingProperties =
                    root.resolve(module)
                            .resolve("src/main/resources/META-INF/microprofile-config.properties");
            for (Path file :
                    Stream.of(properties, messagingProperties).filter(Files::exists).toList()) {
                String text = read(file);
                keysOf(PROPERTY_LINE, text).forEach(key -> variables.add(asVariable(key)));
                variables.addAll(keysOf(VARIABLE, text));
            }
            sources(root.resolve(module).resolve("src/main/java"))
                    .forEach(
                            code ->
                                    keysOf(CONFIG_PROPERTY, code)
                                            .forEach(key -> variables.add(asVariable(key))));
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md"))
                    .forEach(
                            doc ->
                                    keysOf(DOCUMENTED, read(doc))
                                            .forEach(
                                                    key -> {
                                                        variables.add(asVariable(key));
                                                        variables.add(asQuotedVariable(key));
                                                    }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return variables;
    }

    /**
     * What the oracle image reads: the variables its code asks for, and those of its start script.
     */
    static Set<String> oracle(Path root) {
        Set<String> variables =
                new TreeSet<>(keysOf(VARIABLE, read(root.resolve("deploy/oracle-examples.sh"))));
        sources(root.resolve("oracle/src/main/java"))
                .forEach(
                        code -> {
                            variables.addAll(keysOf(GETENV, code));
                            variables.addAll(keysOf(PICOCLI_ENV, code));
                        });
        return variables;
    }

    /** Quarkus's environment variable for a configuration key. */
    /**
     * A key with quoted segments (a map's keys) as SmallRye Config finds it in the environment:
     * each quote an underscore too ({@code quarkus.tls."wire".x} is {@code QUARKUS_TLS__WIRE__X}).
     */
    static String asQuotedVariable(String key) {
        return key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    static String asVariable(String key) {
        return key.replace("\"", "").toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    private static Set<String> keysOf(Pattern pattern, String text) {
        Set<String> keys = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            keys.add(matcher.group(1));
        }
        return keys;
    }

    private static Stream<String> sources(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files
                    .filter(f -> f.toString().endsWith(".java"))
                    .map(ConfigKeys::read)
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
