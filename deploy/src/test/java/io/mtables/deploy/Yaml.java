package io.mtables.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** YAML files as Jackson trees: every document of a file, and the repository's root. */
final class Yaml {

    static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());

    private Yaml() {}

    /** The repository: the tests run in deploy/. */
    static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("docker-compose.yml")) ? here : here.getParent();
    }

    /** Every document of a YAML file (separated by ---), empty ones left out. */
    static List<JsonNode> documents(Path file) {
        try (var parser = MAPPER.getFactory().createParser(file.toFile())) {
            List<JsonNode> documents = new ArrayList<>();
            var iterator = MAPPER.readValues(parser, JsonNode.class);
            while (iterator.hasNext()) {
                JsonNode document = iterator.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static JsonNode document(Path file) {
        List<JsonNode> documents = documents(file);
        if (documents.size() != 1) {
            throw new IllegalStateException(
                    file + " holds " + documents.size() + " documents, not one");
        }
        return documents.get(0);
    }
}
