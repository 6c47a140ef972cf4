package io.mtables.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden examples under {@code examples/v<N>/<Name>/}: every {@code valid-*} example is read
 * into its record and written back unchanged; every {@code invalid-*} example is refused.
 */
class ContractExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ContractCodec codec = new ContractCodec();

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("validExamples")
    void validExampleRoundTripsThroughItsRecord(Contract<?> contract, String file, String json)
            throws IOException {
        String written = roundTrip(contract, json);

        assertThat(JSON.readTree(written)).isEqualTo(JSON.readTree(json));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("invalidExamples")
    void invalidExampleIsRefusedWithTheContractNamed(
            Contract<?> contract, String file, String json) {
        assertThatThrownBy(() -> codec.decode(contract, json))
                .isInstanceOf(ContractViolationException.class)
                .hasMessageStartingWith(contract.type());
    }

    private <T> String roundTrip(Contract<T> contract, String json) {
        return codec.encode(contract, codec.decode(contract, json));
    }

    static Stream<Arguments> validExamples() throws Exception {
        return examples("valid-");
    }

    static Stream<Arguments> invalidExamples() throws Exception {
        return examples("invalid-");
    }

    private static Stream<Arguments> examples(String prefix)
            throws IOException, URISyntaxException {
        List<Arguments> found = new ArrayList<>();
        for (Contract<?> contract : Contracts.ALL) {
            Path dir =
                    Path.of(
                            ContractExamplesTest.class
                                    .getResource(
                                            "/examples/v"
                                                    + contract.version()
                                                    + "/"
                                                    + contract.name())
                                    .toURI());
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file :
                        files.filter(f -> f.getFileName().toString().startsWith(prefix))
                                .sorted()
                                .toList()) {
                    found.add(
                            Arguments.of(
                                    contract,
                                    file.getFileName().toString(),
                                    Files.readString(file)));
                }
            }
        }
        return found.stream();
    }
}
