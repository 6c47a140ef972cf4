package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.PlannerSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * The planner's settings read from Quarkus's configuration (SmallRye Config's conversions), as
 * ddl-service and planner-service read them ({@link PlannerSettings#read}).
 */
class PlannerSettingsFromConfigTest {

    @Test
    void withNothingSetTheSettingsArePlannerServicesDefaults() {
        assertThat(PlannerSettings.read(config(Map.of())::getOptionalValue))
                .isEqualTo(PlannerSettings.defaults());
    }

    @Test
    void eachKeyPlannerServiceReadsIsReadHere() {
        Config config =
                config(
                        Map.of(
                                PlannerSettings.FRESHNESS_THRESHOLD_KEY, "PT45M",
                                PlannerSettings.CONTINUOUS_FRESHNESS_KEY, "PT90S",
                                PlannerSettings.FULL_FRESHNESS_KEY, "PT2H",
                                PlannerSettings.TIME_ZONE_KEY, "Europe/Berlin"));

        assertThat(PlannerSettings.read(config::getOptionalValue))
                .isEqualTo(
                        new PlannerSettings(
                                Duration.ofMinutes(45),
                                Duration.ofSeconds(90),
                                Duration.ofHours(2),
                                ZoneId.of("Europe/Berlin")));
    }

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
    }
}
