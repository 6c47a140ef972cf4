package io.mtables.ddl.wire;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A bound parameter's value as a literal of the dialect, which has no parameters of its own: put
 * into the statement's text before it is executed, so that a value is never SQL.
 */
final class Parameters {

    private static final Pattern NUMBER =
            Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");
    private static final int BOOL = 16;
    private static final List<Integer> NUMERIC_TYPES = List.of(20, 21, 23, 700, 701, 1700);

    private Parameters() {}

    /** The dialect's type for a parameter declared with PostgreSQL's type {@code oid}. */
    static String dialectType(int oid) {
        return switch (oid) {
            case 16 -> "BOOLEAN";
            case 21 -> "SMALLINT";
            case 23 -> "INT";
            case 20 -> "BIGINT";
            case 700 -> "FLOAT";
            case 701 -> "DOUBLE";
            case 1700 -> "DECIMAL(38, 10)";
            case 1082 -> "DATE";
            case 1114 -> "TIMESTAMP";
            default -> "VARCHAR";
        };
    }

    /**
     * A parameter's value as a literal of the dialect: numbers (in parentheses) and booleans bare,
     * the rest quoted.
     */
    static String literal(byte[] value, short format, int type) {
        if (value == null) {
            return "NULL";
        }
        String text =
                format == WireReplies.BINARY
                        ? binaryText(value, type)
                        : new String(value, StandardCharsets.UTF_8);
        if (NUMERIC_TYPES.contains(type)) {
            if (!NUMBER.matcher(text).matches()) {
                throw new IllegalArgumentException("'" + text + "' is not a number");
            }
            // In parentheses: a negative number after a minus would otherwise start a comment.
            return "(" + text + ")";
        }
        if (type == BOOL) {
            return switch (text.toLowerCase(java.util.Locale.ROOT)) {
                case "t", "true", "1", "on", "yes" -> "TRUE";
                case "f", "false", "0", "off", "no" -> "FALSE";
                default -> throw new IllegalArgumentException("'" + text + "' is not a boolean");
            };
        }
        return SqlText.literal(text);
    }

    private static String binaryText(byte[] value, int type) {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(value);
        return switch (type) {
            case 16 -> value[0] != 0 ? "true" : "false";
            case 21 -> Short.toString(bytes.getShort());
            case 23 -> Integer.toString(bytes.getInt());
            case 20 -> Long.toString(bytes.getLong());
            case 700 -> Float.toString(bytes.getFloat());
            case 701 -> Double.toString(bytes.getDouble());
            case 0, 25, 1043 -> new String(value, StandardCharsets.UTF_8);
            default ->
                    throw new IllegalArgumentException(
                            "binary values of type oid "
                                    + type
                                    + " are not taken; send it as text");
        };
    }
}
