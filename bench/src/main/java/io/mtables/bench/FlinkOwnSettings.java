package io.mtables.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * The session settings of Flink's own materialized tables in a bench: the bench's own, then those
 * of {@code MT_BENCH_FLINK_OWN_SETTINGS="key=value,..."}, to find what makes the two systems' jobs
 * differ (docs/benchmarks.md).
 */
final class FlinkOwnSettings {

    private FlinkOwnSettings() {}

    static Map<String, String> of(Map<String, String> bench) {
        Map<String, String> settings = new TreeMap<>(bench);
        String extra = System.getenv().getOrDefault("MT_BENCH_FLINK_OWN_SETTINGS", "");
        for (String setting : extra.split(",")) {
            if (!setting.isBlank()) {
                if (setting.indexOf('=') < 1) {
                    throw new IllegalArgumentException(
                            "MT_BENCH_FLINK_OWN_SETTINGS: '"
                                    + setting
                                    + "' is not key=value (settings are separated by commas)");
                }
                settings.put(
                        setting.substring(0, setting.indexOf('=')).trim(),
                        setting.substring(setting.indexOf('=') + 1).trim());
            }
        }
        if (!extra.isBlank()) {
            System.out.println("Flink's own session settings: " + settings);
        }
        return settings;
    }
}
