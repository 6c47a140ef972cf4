package io.mtables.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Reads and writes contract payloads as JSON, checking each against its JSON Schema on the way in
 * and on the way out, so a malformed record is refused at the boundary with a precise message.
 *
 * <p>Readers ignore fields they do not know: adding an optional field is a compatible change within
 * a version.
 */
public final class ContractCodec {

    private static final ObjectMapper MAPPER =
            new ObjectMapper()
                    .registerModule(new JavaTimeModule())
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private static final JsonSchemaFactory SCHEMAS =
            JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private final Map<Contract<?>, JsonSchema> schemaCache = new ConcurrentHashMap<>();

    /** The payload {@code json} as a {@code contract} record. */
    public <T> T decode(Contract<T> contract, String json) {
        if (json == null || json.isBlank()) {
            throw new ContractViolationException(contract.type() + ": the payload is empty");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ContractViolationException(
                    contract.type() + ": the payload is not JSON (" + e.getOriginalMessage() + ")",
                    e);
        }
        checkAgainstSchema(contract, tree);
        try {
            return MAPPER.treeToValue(tree, contract.javaType());
        } catch (JsonProcessingException e) {
            throw new ContractViolationException(
                    contract.type() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** {@code value} as JSON, after checking that it follows {@code contract}. */
    public <T> String encode(Contract<T> contract, T value) {
        JsonNode tree = MAPPER.valueToTree(value);
        checkAgainstSchema(contract, tree);
        try {
            return MAPPER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + contract.type(), e);
        }
    }

    private void checkAgainstSchema(Contract<?> contract, JsonNode tree) {
        var errors = schemaOf(contract).validate(tree);
        if (!errors.isEmpty()) {
            throw new ContractViolationException(
                    contract.type()
                            + " does not follow its schema: "
                            + errors.stream()
                                    .map(ValidationMessage::getMessage)
                                    .sorted()
                                    .collect(Collectors.joining("; ")));
        }
    }

    private JsonSchema schemaOf(Contract<?> contract) {
        return schemaCache.computeIfAbsent(contract, ContractCodec::loadSchema);
    }

    private static JsonSchema loadSchema(Contract<?> contract) {
        try (InputStream in = ContractCodec.class.getResourceAsStream(contract.schemaResource())) {
            if (in == null) {
                throw new IllegalStateException("no JSON Schema at " + contract.schemaResource());
            }
            return SCHEMAS.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
