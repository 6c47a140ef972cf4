package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlannerSettingsTest {

    @Test
    void theContractsFormNamesEachSettingAndReadsBackEqual() {
        PlannerSettings settings =
                new PlannerSettings(
                        Duration.ofMinutes(45),
                        Duration.ofSeconds(90),
                        Duration.ofHours(2),
                        ZoneId.of("Europe/Berlin"));

        assertThat(settings.toContract())
                .isEqualTo(
                        "freshness-threshold=PT45M;default-freshness.continuous=PT1M30S;"
                                + "default-freshness.full=PT2H;time-zone=Europe/Berlin");
        assertThat(PlannerSettings.fromContract(settings.toContract())).contains(settings);
        assertThat(PlannerSettings.defaults().toContract())
                .isEqualTo(
                        "freshness-threshold=PT30M;default-freshness.continuous=PT3M;"
                                + "default-freshness.full=PT1H;time-zone=UTC");
    }

    @Test
    void anyOtherTextReadsAsNoSettings() {
        assertThat(PlannerSettings.fromContract(PlannerSettings.defaults().toString())).isEmpty();
        assertThat(PlannerSettings.fromContract("")).isEmpty();
        assertThat(
                        PlannerSettings.fromContract(
                                "freshness-threshold=30m;default-freshness.continuous=PT3M;"
                                        + "default-freshness.full=PT1H;time-zone=UTC"))
                .as("a duration not in ISO-8601")
                .isEmpty();
        assertThat(
                        PlannerSettings.fromContract(
                                "freshness-threshold=PT30M;default-freshness.continuous=PT3M;"
                                        + "default-freshness.full=PT1H;time-zone=Mars/Olympus"))
                .as("an unknown zone")
                .isEmpty();
    }

    @Test
    void readTakesEachKeyAndTheDefaultOfEveryKeyNotSet() {
        Map<String, Object> set =
                Map.of(
                        PlannerSettings.FRESHNESS_THRESHOLD_KEY,
                        Duration.ofMinutes(45),
                        PlannerSettings.TIME_ZONE_KEY,
                        "Europe/Berlin");
        PlannerSettings.Configuration configuration =
                new PlannerSettings.Configuration() {
                    @Override
                    public <T> Optional<T> value(String key, Class<T> type) {
                        return Optional.ofNullable(set.get(key)).map(type::cast);
                    }
                };

        assertThat(PlannerSettings.read(configuration))
                .isEqualTo(
                        new PlannerSettings(
                                Duration.ofMinutes(45),
                                Duration.ofMinutes(3),
                                Duration.ofHours(1),
                                ZoneId.of("Europe/Berlin")));
    }
}
