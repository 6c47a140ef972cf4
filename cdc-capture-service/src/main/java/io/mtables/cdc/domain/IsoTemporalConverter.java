package io.mtables.cdc.domain;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Writes PostgreSQL's date, time, timestamp and timestamptz columns as the text Flink's
 * debezium-json reads as DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (its default 'SQL' format): {@code
 * 2026-11-29}, {@code 10:15:30.123456}, {@code 2026-11-29 10:15:30.123456} and {@code 2026-11-29
 * 10:15:30.123456Z}. Debezium's own encodings (epoch days, micros, ISO with 'T') are numbers or
 * text Flink cannot read as those types, so users would have to declare BIGINT columns and convert
 * in every query.
 */
public class IsoTemporalConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {

    private static final DateTimeFormatter TIME =
            new DateTimeFormatterBuilder()
                    .appendPattern("HH:mm:ss")
                    .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
                    .toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIMESTAMP =
            new DateTimeFormatterBuilder()
                    .append(DateTimeFormatter.ISO_LOCAL_DATE)
                    .appendLiteral(' ')
                    .append(TIME)
                    .toFormatter(Locale.ROOT);

    /** The column types converted, by PostgreSQL's names. */
    enum Kind {
        DATE,
        TIME,
        TIMESTAMP,
        TIMESTAMPTZ;

        static Kind of(String typeName) {
            return switch (typeName.toLowerCase(Locale.ROOT)) {
                case "date" -> DATE;
                case "time", "time without time zone" -> TIME;
                case "timestamp", "timestamp without time zone" -> TIMESTAMP;
                case "timestamptz", "timestamp with time zone" -> TIMESTAMPTZ;
                default -> null;
            };
        }
    }

    @Override
    public void configure(Properties properties) {
        // nothing to configure: the formats are the ones Flink reads
    }

    @Override
    public void converterFor(
            RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        Kind kind = Kind.of(column.typeName());
        if (kind == null) {
            return;
        }
        SchemaBuilder schema = SchemaBuilder.string();
        if (column.isOptional()) {
            schema.optional();
        }
        registration.register(schema, value -> value == null ? null : format(kind, value));
    }

    /**
     * The text of one value; the Java type depends on whether it came from the snapshot (JDBC) or
     * the stream.
     */
    static String format(Kind kind, Object value) {
        return switch (kind) {
            case DATE -> DateTimeFormatter.ISO_LOCAL_DATE.format(localDate(value));
            case TIME -> TIME.format(localTime(value));
            case TIMESTAMP -> TIMESTAMP.format(localDateTime(value));
            case TIMESTAMPTZ ->
                    TIMESTAMP.format(instant(value).atOffset(ZoneOffset.UTC).toLocalDateTime())
                            + "Z";
        };
    }

    private static LocalDate localDate(Object value) {
        if (value instanceof LocalDate date) {
            return date;
        }
        if (value instanceof Date date) {
            return date.toLocalDate();
        }
        if (value instanceof Number epochDays) {
            return LocalDate.ofEpochDay(epochDays.longValue());
        }
        return LocalDate.parse(value.toString().substring(0, 10));
    }

    private static LocalTime localTime(Object value) {
        if (value instanceof LocalTime time) {
            return time;
        }
        if (value instanceof Time time) {
            return time.toLocalTime();
        }
        if (value instanceof Duration sinceMidnight) {
            return LocalTime.ofNanoOfDay(sinceMidnight.toNanos());
        }
        if (value instanceof OffsetTime time) {
            return time.toLocalTime();
        }
        return LocalTime.parse(value.toString());
    }

    private static LocalDateTime localDateTime(Object value) {
        if (value instanceof LocalDateTime timestamp) {
            return timestamp;
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toLocalDateTime();
        }
        if (value instanceof Instant instant) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        return LocalDateTime.parse(value.toString().replace(' ', 'T'));
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime timestamp) {
            return timestamp.toInstant();
        }
        if (value instanceof ZonedDateTime timestamp) {
            return timestamp.toInstant();
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        return OffsetDateTime.parse(value.toString().replace(' ', 'T')).toInstant();
    }
}
