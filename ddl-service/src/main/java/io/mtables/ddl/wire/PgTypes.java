package io.mtables.ddl.wire;

import io.mtables.ddl.pgcatalog.PgColumnType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's type for each type a result column has (Flink's and Calcite's names), and its values
 * in PostgreSQL's text format, or its binary format for the common types (docs/clients.md).
 */
enum PgTypes {
    BOOL(16, 1),
    INT2(21, 2),
    INT4(23, 4),
    INT8(20, 8),
    FLOAT4(700, 4),
    FLOAT8(701, 8),
    NUMERIC(1700, -1),
    TEXT(25, -1),
    VARCHAR(1043, -1),
    BYTEA(17, -1),
    DATE(1082, 4),
    TIME(1083, 8),
    TIMESTAMP(1114, 8),
    TIMESTAMPTZ(1184, 8);

    /** PostgreSQL's epoch for binary dates and timestamps. */
    private static final LocalDate PG_EPOCH = LocalDate.of(2000, 1, 1);

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter MICROSECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

    final int oid;
    final int size;

    PgTypes(int oid, int size) {
        this.oid = oid;
        this.size = size;
    }

    /**
     * The type of a result column whose type is {@code type} (such as {@code BIGINT NOT NULL}), as
     * the emulated pg_catalog says it ({@link PgColumnType}).
     */
    static PgTypes of(String type) {
        int oid = PgColumnType.of(type).type().oid;
        for (PgTypes candidate : values()) {
            if (candidate.oid == oid) {
                return candidate;
            }
        }
        return TEXT;
    }

    /** {@code value} in PostgreSQL's text format. */
    byte[] text(Object value) {
        String text =
                switch (this) {
                    case BOOL -> Boolean.TRUE.equals(value) || "true".equals(value) ? "t" : "f";
                    case NUMERIC ->
                            value instanceof BigDecimal decimal
                                    ? decimal.toPlainString()
                                    : value.toString();
                    case BYTEA -> value instanceof byte[] bytes ? hex(bytes) : value.toString();
                    case TIMESTAMP -> timestampText(timestamp(value));
                    case TIMESTAMPTZ -> timestampText(timestamp(value)) + "+00";
                    default -> value.toString();
                };
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code value} in PostgreSQL's binary format. */
    byte[] binary(Object value) {
        ByteBuffer out = size > 0 ? ByteBuffer.allocate(size) : null;
        switch (this) {
            case BOOL ->
                    out.put((byte) (Boolean.TRUE.equals(value) || "true".equals(value) ? 1 : 0));
            case INT2 -> out.putShort(((Number) value).shortValue());
            case INT4 -> out.putInt(((Number) value).intValue());
            case INT8 -> out.putLong(((Number) value).longValue());
            case FLOAT4 -> out.putFloat(((Number) value).floatValue());
            case FLOAT8 -> out.putDouble(((Number) value).doubleValue());
            case DATE ->
                    out.putInt(
                            (int)
                                    ChronoUnit.DAYS.between(
                                            PG_EPOCH, LocalDate.parse(value.toString())));
            case TIMESTAMP, TIMESTAMPTZ ->
                    out.putLong(
                            ChronoUnit.MICROS.between(PG_EPOCH.atStartOfDay(), timestamp(value)));
            case TIME -> out.putLong(LocalTime.parse(value.toString()).toNanoOfDay() / 1000);
            case NUMERIC -> {
                return numeric(new BigDecimal(value.toString()));
            }
            case BYTEA -> {
                return value instanceof byte[] bytes ? bytes : text(value);
            }
            default -> {
                return text(value);
            }
        }
        return out.array();
    }

    /**
     * A numeric in PostgreSQL's binary form: the count of base-10000 digits, the weight of the
     * first, the sign, the scale, then the digits (the integer part grouped from the decimal point
     * leftwards, the fraction rightwards).
     */
    static byte[] numeric(BigDecimal value) {
        int scale = Math.max(value.scale(), 0);
        String plain = value.abs().setScale(scale).toPlainString();
        int point = plain.indexOf('.');
        String whole = point < 0 ? plain : plain.substring(0, point);
        String fraction = point < 0 ? "" : plain.substring(point + 1);
        whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
        fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
        List<Short> digits = new ArrayList<>();
        for (int i = 0; i < whole.length(); i += 4) {
            digits.add(Short.parseShort(whole.substring(i, i + 4)));
        }
        for (int i = 0; i < fraction.length(); i += 4) {
            digits.add(Short.parseShort(fraction.substring(i, i + 4)));
        }
        int weight = whole.length() / 4 - 1;
        while (!digits.isEmpty() && digits.get(0) == 0) {
            digits.remove(0);
            weight--;
        }
        while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
            digits.remove(digits.size() - 1);
        }
        ByteBuffer out = ByteBuffer.allocate(8 + 2 * digits.size());
        out.putShort((short) digits.size())
                .putShort((short) (digits.isEmpty() ? 0 : weight))
                .putShort((short) (value.signum() < 0 ? 0x4000 : 0))
                .putShort((short) scale);
        digits.forEach(out::putShort);
        return out.array();
    }

    /** A timestamp as the reads give it: epoch milliseconds, an ISO instant or local date-time. */
    private static LocalDateTime timestamp(Object value) {
        if (value instanceof Number millis) {
            return LocalDateTime.ofInstant(
                    Instant.ofEpochMilli(millis.longValue()), ZoneOffset.UTC);
        }
        if (value instanceof Instant instant) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime local) {
            return local;
        }
        String text = value.toString();
        try {
            return LocalDateTime.ofInstant(Instant.parse(text), ZoneOffset.UTC);
        } catch (DateTimeParseException notAnInstant) {
            return LocalDateTime.parse(text.replace(' ', 'T'));
        }
    }

    /** As PostgreSQL prints it: the fraction only when there is one. */
    private static String timestampText(LocalDateTime timestamp) {
        return (timestamp.getNano() == 0 ? SECONDS : MICROSECONDS).format(timestamp);
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder("\\x");
        for (byte b : bytes) {
            text.append(Character.forDigit((b >> 4) & 0xF, 16))
                    .append(Character.forDigit(b & 0xF, 16));
        }
        return text.toString();
    }
}
