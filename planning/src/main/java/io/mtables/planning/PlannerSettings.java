package io.mtables.planning;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The planner's knobs, with Flink's names and defaults.
 *
 * @param freshnessThreshold {@code materialized-table.refresh-mode.freshness-threshold}: an AUTO
 *     table whose freshness is below it is CONTINUOUS, else FULL (30 min)
 * @param defaultContinuousFreshness {@code materialized-table.default-freshness.continuous} (3 min)
 * @param defaultFullFreshness {@code materialized-table.default-freshness.full} (1 h)
 * @param timeZone {@code mt.planner.time-zone} (UTC): where a FULL table's periods begin and end
 *     (its cron and partition values), written into its plan
 */
public record PlannerSettings(
        Duration freshnessThreshold,
        Duration defaultContinuousFreshness,
        Duration defaultFullFreshness,
        ZoneId timeZone) {

    /*
     * The settings' keys and defaults, defined once for both services that plan: ddl-service
     * previews a table's plan with them, planner-service makes it (a preview made with other
     * settings is planned again). The freshness defaults are Flink's, in ISO-8601.
     */
    public static final String FRESHNESS_THRESHOLD_KEY =
            "materialized-table.refresh-mode.freshness-threshold";
    public static final String FRESHNESS_THRESHOLD_DEFAULT = "PT30M";
    public static final String CONTINUOUS_FRESHNESS_KEY =
            "materialized-table.default-freshness.continuous";
    public static final String CONTINUOUS_FRESHNESS_DEFAULT = "PT3M";
    public static final String FULL_FRESHNESS_KEY = "materialized-table.default-freshness.full";
    public static final String FULL_FRESHNESS_DEFAULT = "PT1H";
    public static final String TIME_ZONE_KEY = "mt.planner.time-zone";
    public static final String TIME_ZONE_DEFAULT = "UTC";

    /** The default time zone of periods. */
    public static final ZoneId UTC = ZoneId.of(TIME_ZONE_DEFAULT);

    /** Periods in UTC. */
    public PlannerSettings(
            Duration freshnessThreshold,
            Duration defaultContinuousFreshness,
            Duration defaultFullFreshness) {
        this(freshnessThreshold, defaultContinuousFreshness, defaultFullFreshness, UTC);
    }

    private static final Pattern CONTRACT_FORM =
            Pattern.compile(
                    "freshness-threshold=(\\S+?);default-freshness\\.continuous=(\\S+?);"
                            + "default-freshness\\.full=(\\S+?);time-zone=(\\S+)");

    /**
     * These settings as ddl-service's preview carries them to planner-service ({@code settings} of
     * TableDefined v1's {@code previewedPlan}, whose schema defines this form): {@code
     * freshness-threshold=PT30M;default-freshness.continuous=PT3M;default-freshness.full=PT1H;time-zone=UTC},
     * durations in ISO-8601, the zone by its id.
     */
    public String toContract() {
        return "freshness-threshold="
                + freshnessThreshold
                + ";default-freshness.continuous="
                + defaultContinuousFreshness
                + ";default-freshness.full="
                + defaultFullFreshness
                + ";time-zone="
                + timeZone.getId();
    }

    /**
     * The settings {@link #toContract()} wrote; empty for any other text (a record written before
     * this form, which printed the record itself): then the planner plans the version itself.
     */
    public static Optional<PlannerSettings> fromContract(String text) {
        Matcher form = CONTRACT_FORM.matcher(text);
        if (!form.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new PlannerSettings(
                            Duration.parse(form.group(1)),
                            Duration.parse(form.group(2)),
                            Duration.parse(form.group(3)),
                            ZoneId.of(form.group(4))));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A service's configuration, as {@code read} asks it: the value under a key, converted to a
     * type, if set. MicroProfile Config's {@code config::getOptionalValue} is one.
     */
    @FunctionalInterface
    public interface Configuration {
        <T> Optional<T> value(String key, Class<T> type);
    }

    /**
     * The settings {@code configuration} gives under the keys above, each default where it gives
     * none: both services that plan read them so.
     */
    public static PlannerSettings read(Configuration configuration) {
        return new PlannerSettings(
                duration(configuration, FRESHNESS_THRESHOLD_KEY, FRESHNESS_THRESHOLD_DEFAULT),
                duration(configuration, CONTINUOUS_FRESHNESS_KEY, CONTINUOUS_FRESHNESS_DEFAULT),
                duration(configuration, FULL_FRESHNESS_KEY, FULL_FRESHNESS_DEFAULT),
                // As text: Quarkus's ZoneId converter is handed "" for a key nobody set.
                ZoneId.of(
                        configuration
                                .value(TIME_ZONE_KEY, String.class)
                                .filter(zone -> !zone.isBlank())
                                .orElse(TIME_ZONE_DEFAULT)));
    }

    private static Duration duration(Configuration configuration, String key, String isoDefault) {
        return configuration.value(key, Duration.class).orElse(Duration.parse(isoDefault));
    }

    /** Flink's defaults, periods in UTC. */
    public static PlannerSettings defaults() {
        return new PlannerSettings(
                Duration.parse(FRESHNESS_THRESHOLD_DEFAULT),
                Duration.parse(CONTINUOUS_FRESHNESS_DEFAULT),
                Duration.parse(FULL_FRESHNESS_DEFAULT));
    }
}
