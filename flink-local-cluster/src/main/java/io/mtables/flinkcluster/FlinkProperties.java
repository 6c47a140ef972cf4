package io.mtables.flinkcluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Flink settings handed to a cluster process in the environment variable {@code FLINK_PROPERTIES},
 * one {@code key: value} per line: the convention of Flink's official image, so the same variable
 * configures our processes and that image alike. Settings with secrets in them (an object store's
 * keys) travel this way rather than on a command line every user of the machine can read.
 */
public final class FlinkProperties {

    public static final String ENVIRONMENT_VARIABLE = "FLINK_PROPERTIES";

    private FlinkProperties() {}

    /** The settings in {@code FLINK_PROPERTIES}; none when it is unset. */
    public static Map<String, String> fromEnvironment() {
        return parse(System.getenv().getOrDefault(ENVIRONMENT_VARIABLE, ""));
    }

    /** Parses {@code key: value} lines; blank lines and {@code #} comments are skipped. */
    public static Map<String, String> parse(String text) {
        Map<String, String> settings = new LinkedHashMap<>();
        int number = 0;
        for (String line : text.split("\n")) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon <= 0) {
                // The line itself is not shown: it may hold a secret.
                throw new IllegalArgumentException(
                        ENVIRONMENT_VARIABLE
                                + " line "
                                + number
                                + " is not 'key: value' (a Flink option's name, a colon, its"
                                + " value)");
            }
            settings.put(trimmed.substring(0, colon).strip(), trimmed.substring(colon + 1).strip());
        }
        return settings;
    }

    /** {@code settings} as the value of {@code FLINK_PROPERTIES}. */
    public static String format(Map<String, String> settings) {
        StringBuilder text = new StringBuilder();
        settings.forEach((key, value) -> text.append(key).append(": ").append(value).append('\n'));
        return text.toString();
    }
}
