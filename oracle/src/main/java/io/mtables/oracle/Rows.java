package io.mtables.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Rows from either side in one normal form, and their differences as multisets. */
public final class Rows {

    private Rows() {}

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Pattern TIMESTAMP =
            Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}(?::\\d{2})?)(\\.\\d+)?Z?");

    /**
     * A value as text, the same whichever side it comes from: numbers without trailing zeros,
     * timestamps as {@code yyyy-MM-dd HH:mm:ss[.fraction]} without trailing zeros or zone letter,
     * NULL for null.
     */
    public static String value(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Timestamp timestamp) {
            return normalize(timestamp.toLocalDateTime().toString());
        }
        return normalize(value.toString());
    }

    /** A value of a JSON row from ddl-service's SELECT. */
    public static String value(JsonNode node) {
        if (node == null || node.isNull()) {
            return "NULL";
        }
        return normalize(node.isNumber() ? node.decimalValue().toPlainString() : node.asText());
    }

    static String normalize(String text) {
        if (NUMBER.matcher(text).matches()) {
            return new BigDecimal(text).stripTrailingZeros().toPlainString();
        }
        var timestamp = TIMESTAMP.matcher(text);
        if (timestamp.matches()) {
            String time =
                    timestamp.group(2).length() == 5
                            ? timestamp.group(2) + ":00"
                            : timestamp.group(2);
            String fraction =
                    timestamp.group(3) == null ? "" : timestamp.group(3).replaceAll("0+$", "");
            return timestamp.group(1) + " " + time + (fraction.equals(".") ? "" : fraction);
        }
        return text;
    }

    /**
     * The rows in {@code left} but not in {@code right}, counted: a row twice on the left and once
     * on the right is one difference.
     */
    public static List<List<String>> missingFrom(
            List<List<String>> right, List<List<String>> left) {
        Map<List<String>, Integer> counts = new HashMap<>();
        right.forEach(row -> counts.merge(row, 1, Integer::sum));
        List<List<String>> missing = new ArrayList<>();
        for (List<String> row : left) {
            Integer count = counts.get(row);
            if (count == null || count == 0) {
                missing.add(row);
            } else {
                counts.put(row, count - 1);
            }
        }
        return missing;
    }
}
