package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The rules of seed 001 that Flink 2.2 does not check itself. */
public final class MaterializedTableRules {

    /** The FULL-mode freshness values that map to a cron period, as users read them. */
    public static final String CRON_PERIODS =
            "SECOND or MINUTE: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30; HOUR: 1, 2, 3, 4, 6, 8, 12;"
                    + " DAY: 1";

    /** Flink's option that names the partition a scheduled FULL refresh overwrites. */
    private static final Pattern DATE_FORMATTER =
            Pattern.compile("^partition\\.fields\\.(.+)\\.date-formatter$");

    private MaterializedTableRules() {}

    /**
     * Checks every {@code partition.fields.<f>.date-formatter} option: only in FULL mode (Flink
     * checks that the field is a string partition column), and a valid date-time pattern.
     *
     * @param options the table's options
     * @param effectiveMode the mode the table will run in: declared, or inferred from freshness
     * @param at where the WITH clause is, for the message
     */
    public static void checkDateFormatters(
            Map<String, String> options, RefreshMode effectiveMode, SourcePosition at) {
        for (var option : options.entrySet()) {
            Matcher formatter = DATE_FORMATTER.matcher(option.getKey());
            if (!formatter.matches()) {
                continue;
            }
            if (effectiveMode != RefreshMode.FULL) {
                throw StatementException.invalidAt(
                        "DateFormatterRequiresFullMode",
                        "Option '"
                                + option.getKey()
                                + "' is only allowed in FULL refresh mode, but the table"
                                + " refreshes in "
                                + effectiveMode
                                + " mode: a scheduled FULL refresh overwrites the partition named"
                                + " by its scheduled time, a CONTINUOUS job writes every"
                                + " partition.",
                        at,
                        "REFRESH_MODE = FULL, or a FRESHNESS at or above the freshness threshold,"
                                + " or no date-formatter");
            }
            try {
                DateTimeFormatter.ofPattern(option.getValue());
            } catch (IllegalArgumentException e) {
                throw StatementException.invalidAt(
                        "InvalidDateFormatter",
                        "Option '"
                                + option.getKey()
                                + "' = '"
                                + option.getValue()
                                + "' is not a valid date-time"
                                + " pattern: "
                                + e.getMessage(),
                        at,
                        "a java.time.format.DateTimeFormatter pattern such as 'yyyy-MM-dd' or"
                                + " 'yyyyMMddHH'");
            }
        }
    }

    /** Whether a Flink validation message is about the FULL-mode freshness periods. */
    public static boolean isCronPeriodError(String message) {
        return message != null && message.contains("In full refresh mode");
    }
}
