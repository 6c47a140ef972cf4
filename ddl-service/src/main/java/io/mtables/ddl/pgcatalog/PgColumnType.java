package io.mtables.ddl.pgcatalog;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * PostgreSQL's type of a column whose Flink type is given ({@code DECIMAL(10, 2) NOT NULL}): the
 * one mapping the wire protocol's rows and the emulated pg_catalog both use (docs/clients.md).
 *
 * @param type PostgreSQL's built-in type
 * @param typmod its modifier as pg_attribute.atttypmod holds it (-1 when none)
 */
public record PgColumnType(BuiltIn type, int typmod) {

    /** The built-in types mtables maps to, with what pg_type says of them. */
    public enum BuiltIn {
        BOOL(16, "bool", "boolean", 1, 'B', 1000),
        BYTEA(17, "bytea", "bytea", -1, 'U', 1001),
        CHAR(18, "char", "\"char\"", 1, 'S', 1002),
        NAME(19, "name", "name", 64, 'S', 1003),
        INT8(20, "int8", "bigint", 8, 'N', 1016),
        INT2(21, "int2", "smallint", 2, 'N', 1005),
        INT4(23, "int4", "integer", 4, 'N', 1007),
        TEXT(25, "text", "text", -1, 'S', 1009),
        OID(26, "oid", "oid", 4, 'N', 1028),
        FLOAT4(700, "float4", "real", 4, 'N', 1021),
        FLOAT8(701, "float8", "double precision", 8, 'N', 1022),
        VARCHAR(1043, "varchar", "character varying", -1, 'S', 1015),
        DATE(1082, "date", "date", 4, 'D', 1182),
        TIME(1083, "time", "time without time zone", 8, 'D', 1183),
        TIMESTAMP(1114, "timestamp", "timestamp without time zone", 8, 'D', 1115),
        TIMESTAMPTZ(1184, "timestamptz", "timestamp with time zone", 8, 'D', 1185),
        NUMERIC(1700, "numeric", "numeric", -1, 'N', 1231);

        public final int oid;
        public final String typname;

        /** What format_type() calls it. */
        final String formatted;

        public final int length;
        public final char category;
        public final int arrayOid;

        BuiltIn(int oid, String typname, String formatted, int length, char category, int array) {
            this.oid = oid;
            this.typname = typname;
            this.formatted = formatted;
            this.length = length;
            this.category = category;
            this.arrayOid = array;
        }

        private static final Map<Integer, BuiltIn> BY_OID =
                List.of(values()).stream()
                        .collect(Collectors.toMap(t -> t.oid, Function.identity()));

        /** The type of {@code oid}, or null when mtables has none of that oid. */
        public static BuiltIn byOid(int oid) {
            return BY_OID.get(oid);
        }

        /** The type whose array type is {@code oid}, or null. */
        static BuiltIn byArrayOid(int oid) {
            for (BuiltIn type : values()) {
                if (type.arrayOid == oid) {
                    return type;
                }
            }
            return null;
        }
    }

    /** Modifiers in parentheses: {@code (10, 2)}. */
    private static final Pattern MODIFIERS =
            Pattern.compile("\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)");

    /** The largest length Flink writes for STRING ({@code VARCHAR(2147483647)}). */
    private static final int UNBOUNDED = Integer.MAX_VALUE;

    /**
     * PostgreSQL's type of Flink's {@code type} (or Calcite's name of it); text when it has no
     * twin.
     */
    public static PgColumnType of(String type) {
        String name =
                type == null ? "" : type.toUpperCase(Locale.ROOT).replace(" NOT NULL", "").trim();
        int open = name.indexOf('(');
        String base = (open < 0 ? name : name.substring(0, open)).trim();
        Matcher modifiers = MODIFIERS.matcher(open < 0 ? "" : name.substring(open));
        Integer first = null;
        Integer second = null;
        if (modifiers.lookingAt()) {
            long value = Long.parseLong(modifiers.group(1));
            first = value > UNBOUNDED ? UNBOUNDED : (int) value;
            second = modifiers.group(2) == null ? null : Integer.parseInt(modifiers.group(2));
        }
        if (base.startsWith("TIMESTAMP")) {
            boolean zoned = name.contains("LOCAL TIME ZONE") || base.equals("TIMESTAMP_LTZ");
            return new PgColumnType(
                    zoned ? BuiltIn.TIMESTAMPTZ : BuiltIn.TIMESTAMP,
                    first == null ? -1 : Math.min(first, 6));
        }
        return switch (base) {
            case "BOOLEAN" -> plain(BuiltIn.BOOL);
            case "TINYINT", "SMALLINT" -> plain(BuiltIn.INT2);
            case "INT", "INTEGER" -> plain(BuiltIn.INT4);
            case "BIGINT" -> plain(BuiltIn.INT8);
            case "FLOAT", "REAL" -> plain(BuiltIn.FLOAT4);
            case "DOUBLE" -> plain(BuiltIn.FLOAT8);
            case "DECIMAL", "NUMERIC" ->
                    new PgColumnType(
                            BuiltIn.NUMERIC,
                            first == null
                                    ? -1
                                    : ((first << 16) | (second == null ? 0 : second)) + 4);
            case "VARCHAR" ->
                    first == null
                            ? plain(BuiltIn.VARCHAR)
                            : first == UNBOUNDED
                                    ? plain(BuiltIn.TEXT)
                                    : new PgColumnType(BuiltIn.VARCHAR, first + 4);
            case "BINARY", "VARBINARY", "BYTES" -> plain(BuiltIn.BYTEA);
            case "DATE" -> plain(BuiltIn.DATE);
            case "TIME" -> new PgColumnType(BuiltIn.TIME, first == null ? -1 : first);
            default -> plain(BuiltIn.TEXT); // STRING, CHAR, and what has no twin (ARRAY, MAP, ROW)
        };
    }

    private static PgColumnType plain(BuiltIn type) {
        return new PgColumnType(type, -1);
    }

    /** What PostgreSQL's format_type({@code oid}, {@code typmod}) says; null for an unknown oid. */
    public static String format(int oid, int typmod) {
        BuiltIn type = BuiltIn.byOid(oid);
        if (type == null) {
            BuiltIn element = BuiltIn.byArrayOid(oid);
            return element == null ? null : format(element.oid, typmod) + "[]";
        }
        if (typmod < 0) {
            return type.formatted;
        }
        return switch (type) {
            case NUMERIC -> "numeric(" + ((typmod - 4) >> 16) + "," + ((typmod - 4) & 0xffff) + ")";
            case VARCHAR -> "character varying(" + (typmod - 4) + ")";
            case TIMESTAMP -> "timestamp(" + typmod + ") without time zone";
            case TIMESTAMPTZ -> "timestamp(" + typmod + ") with time zone";
            case TIME -> "time(" + typmod + ") without time zone";
            default -> type.formatted;
        };
    }
}
