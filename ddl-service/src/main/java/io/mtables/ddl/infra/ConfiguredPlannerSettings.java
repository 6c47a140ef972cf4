package io.mtables.ddl.infra;

import io.mtables.planning.PlannerSettings;
import java.time.Duration;
import java.time.ZoneId;
import org.eclipse.microprofile.config.Config;

/**
 * The planner's settings as this service's configuration gives them, under the keys and with the
 * defaults planner-service has ({@link PlannerSettings}): ddl-service checks the threshold,
 * explains and previews each plan with them, and planner-service takes a preview only when its own
 * settings are the same.
 */
final class ConfiguredPlannerSettings {

    private ConfiguredPlannerSettings() {}

    static PlannerSettings read(Config config) {
        return new PlannerSettings(
                duration(
                        config,
                        PlannerSettings.FRESHNESS_THRESHOLD_KEY,
                        PlannerSettings.FRESHNESS_THRESHOLD_DEFAULT),
                duration(
                        config,
                        PlannerSettings.CONTINUOUS_FRESHNESS_KEY,
                        PlannerSettings.CONTINUOUS_FRESHNESS_DEFAULT),
                duration(
                        config,
                        PlannerSettings.FULL_FRESHNESS_KEY,
                        PlannerSettings.FULL_FRESHNESS_DEFAULT),
                // As text: Quarkus's ZoneId converter is handed "" for a key nobody set.
                ZoneId.of(
                        config.getOptionalValue(PlannerSettings.TIME_ZONE_KEY, String.class)
                                .filter(zone -> !zone.isBlank())
                                .orElse(PlannerSettings.TIME_ZONE_DEFAULT)));
    }

    private static Duration duration(Config config, String key, String isoDefault) {
        return config.getOptionalValue(key, Duration.class).orElse(Duration.parse(isoDefault));
    }
}
