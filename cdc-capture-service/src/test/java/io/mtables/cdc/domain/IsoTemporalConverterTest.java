package io.mtables.cdc.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.cdc.domain.IsoTemporalConverter.Kind;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Every Java type Debezium hands over for a temporal column becomes the text Flink's 'SQL' format
 * reads.
 */
class IsoTemporalConverterTest {

    @Test
    void datesFromTheSnapshotAndTheStreamAlike() {
        assertThat(IsoTemporalConverter.format(Kind.DATE, LocalDate.of(2026, 11, 29)))
                .isEqualTo("2026-11-29");
        assertThat(IsoTemporalConverter.format(Kind.DATE, Date.valueOf("2026-11-29")))
                .isEqualTo("2026-11-29");
        assertThat(IsoTemporalConverter.format(Kind.DATE, 20_421))
                .as("epoch days")
                .isEqualTo("2025-11-29");
    }

    @Test
    void timesKeepTheirMicrosecondsAndDropTrailingZeros() {
        assertThat(IsoTemporalConverter.format(Kind.TIME, LocalTime.parse("10:15:30.123456")))
                .isEqualTo("10:15:30.123456");
        assertThat(
                        IsoTemporalConverter.format(
                                Kind.TIME, Duration.ofHours(23).plusMinutes(59).plusSeconds(59)))
                .isEqualTo("23:59:59");
        assertThat(IsoTemporalConverter.format(Kind.TIME, "07:00:00.5")).isEqualTo("07:00:00.5");
    }

    @Test
    void timestampsWithoutZoneAreWallClockText() {
        assertThat(
                        IsoTemporalConverter.format(
                                Kind.TIMESTAMP, LocalDateTime.parse("2026-11-29T10:15:30.123456")))
                .isEqualTo("2026-11-29 10:15:30.123456");
        assertThat(
                        IsoTemporalConverter.format(
                                Kind.TIMESTAMP, Timestamp.valueOf("2026-11-29 10:15:30")))
                .isEqualTo("2026-11-29 10:15:30");
        assertThat(
                        IsoTemporalConverter.format(
                                Kind.TIMESTAMP, Instant.parse("2026-11-29T10:15:30Z")))
                .isEqualTo("2026-11-29 10:15:30");
    }

    @Test
    void timestampsWithZoneAreUtcWithAZ() {
        assertThat(
                        IsoTemporalConverter.format(
                                Kind.TIMESTAMPTZ,
                                OffsetDateTime.of(
                                        2026, 11, 29, 10, 15, 30, 0, ZoneOffset.ofHours(1))))
                .isEqualTo("2026-11-29 09:15:30Z");
        assertThat(IsoTemporalConverter.format(Kind.TIMESTAMPTZ, "2026-11-29T10:15:30.25+02:00"))
                .isEqualTo("2026-11-29 08:15:30.25Z");
    }

    @Test
    void onlyPostgresTemporalTypesAreConverted() {
        assertThat(Kind.of("timestamp with time zone")).isEqualTo(Kind.TIMESTAMPTZ);
        assertThat(Kind.of("TIME")).isEqualTo(Kind.TIME);
        assertThat(Kind.of("interval")).isNull();
        assertThat(Kind.of("text")).isNull();
    }
}
