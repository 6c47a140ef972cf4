package io.mtables.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The charts are SVG documents that name their series and draw their data. */
class ChartsTest {

    @Test
    void aDistributionAndRoundsAreWrittenAsSvgWithTheirSeries() throws Exception {
        Map<String, List<Long>> samples = new LinkedHashMap<>();
        samples.put("alone", List.of(20L, 22L, 25L, 31L, 54L));
        samples.put("beside a 10M-row stream", List.of(21L, 24L, 30L, 35L, 60L, 4000L));
        Path distribution = Charts.distribution("test-distribution", "CREATE, ms", "ms", samples);
        String svg = Files.readString(distribution);
        assertThat(svg)
                .startsWith("<?xml")
                .contains("<svg", "alone (5)", "beside a 10M-row stream (6)")
                .as("a logarithmic axis: 20 ms to 4 s")
                .contains(">100<", ">1000<")
                .contains("<path"); // the lines

        Path withZero =
                Charts.distribution(
                        "test-zero", "lookups, ms", "ms", Map.of("lookups", List.of(0L, 1L, 900L)));
        assertThat(Files.readString(withZero))
                .as("linear: a zero has no logarithm")
                .contains(">800<");

        Path rounds =
                Charts.rounds(
                        "test-rounds",
                        "events/s per round",
                        "events/s",
                        Map.of(
                                "ours",
                                List.of(120_000, 118_000),
                                "Flink's own",
                                List.of(90_000, 95_000)));
        assertThat(Files.readString(rounds)).contains("round 1", "round 2", "Flink&apos;s own");
    }
}
