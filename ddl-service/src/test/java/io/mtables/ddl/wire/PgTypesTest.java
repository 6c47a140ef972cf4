package io.mtables.ddl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PgTypesTest {

    @Test
    void typesMapToPostgresqlsOwn() {
        assertThat(PgTypes.of("BIGINT NOT NULL")).isEqualTo(PgTypes.INT8);
        assertThat(PgTypes.of("INT")).isEqualTo(PgTypes.INT4);
        assertThat(PgTypes.of("INTEGER")).isEqualTo(PgTypes.INT4);
        assertThat(PgTypes.of("DECIMAL(10, 2)")).isEqualTo(PgTypes.NUMERIC);
        assertThat(PgTypes.of("STRING")).isEqualTo(PgTypes.TEXT);
        assertThat(PgTypes.of("VARCHAR(20)")).isEqualTo(PgTypes.VARCHAR);
        assertThat(PgTypes.of("BOOLEAN")).isEqualTo(PgTypes.BOOL);
        assertThat(PgTypes.of("DATE")).isEqualTo(PgTypes.DATE);
        assertThat(PgTypes.of("TIMESTAMP(3)")).isEqualTo(PgTypes.TIMESTAMP);
        assertThat(PgTypes.of("TIMESTAMP_LTZ(3)")).isEqualTo(PgTypes.TIMESTAMPTZ);
        assertThat(PgTypes.of("TIMESTAMP(3) WITH LOCAL TIME ZONE")).isEqualTo(PgTypes.TIMESTAMPTZ);
        assertThat(PgTypes.of("DOUBLE")).isEqualTo(PgTypes.FLOAT8);
        assertThat(PgTypes.of("ARRAY<STRING>")).isEqualTo(PgTypes.TEXT);
    }

    @Test
    void valuesGoOutInPostgresqlsTextFormat() {
        assertThat(text(PgTypes.BOOL, true)).isEqualTo("t");
        assertThat(text(PgTypes.NUMERIC, new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(text(PgTypes.TIMESTAMP, "2026-12-06T10:15:30Z"))
                .isEqualTo("2026-12-06 10:15:30");
        assertThat(text(PgTypes.TIMESTAMP, 1_700_000_000_123L))
                .isEqualTo("2023-11-14 22:13:20.123000");
        assertThat(text(PgTypes.TIMESTAMPTZ, "2026-12-06T10:15:30Z"))
                .isEqualTo("2026-12-06 10:15:30+00");
        assertThat(text(PgTypes.BYTEA, new byte[] {1, (byte) 0xAB})).isEqualTo("\\x01ab");
    }

    @Test
    void commonTypesGoOutInBinary() {
        assertThat(ByteBuffer.wrap(PgTypes.INT8.binary(7L)).getLong()).isEqualTo(7L);
        assertThat(ByteBuffer.wrap(PgTypes.INT4.binary(-3)).getInt()).isEqualTo(-3);
        assertThat(ByteBuffer.wrap(PgTypes.DATE.binary("2000-01-02")).getInt()).isEqualTo(1);
        assertThat(ByteBuffer.wrap(PgTypes.TIMESTAMP.binary("2000-01-01T00:00:01Z")).getLong())
                .isEqualTo(1_000_000L);
        assertThat(ByteBuffer.wrap(PgTypes.TIME.binary("00:00:01.5")).getLong())
                .isEqualTo(1_500_000L);
    }

    @Test
    void numericsGoOutInPostgresqlsBaseTenThousandDigits() {
        assertThat(numeric("0")).containsExactly(0, 0, 0, 0);
        assertThat(numeric("12345.678")).containsExactly(3, 1, 0, 3, 1, 2345, 6780);
        assertThat(numeric("-0.5")).containsExactly(1, -1, 0x4000, 1, 5000);
        assertThat(numeric("1E+3")).containsExactly(1, 0, 0, 0, 1000);
        assertThat(numeric("10000")).containsExactly(1, 1, 0, 0, 1);
    }

    private static short[] numeric(String value) {
        ByteBuffer bytes = ByteBuffer.wrap(PgTypes.numeric(new BigDecimal(value)));
        short[] shorts = new short[bytes.remaining() / 2];
        for (int i = 0; i < shorts.length; i++) {
            shorts[i] = bytes.getShort();
        }
        return shorts;
    }

    private static String text(PgTypes type, Object value) {
        return new String(type.text(value), StandardCharsets.UTF_8);
    }
}
