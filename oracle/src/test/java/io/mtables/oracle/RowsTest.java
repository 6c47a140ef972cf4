package io.mtables.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void numbersAndTimestampsReadTheSameFromBothSides() throws Exception {
        assertThat(Rows.value(new BigDecimal("12.30")))
                .isEqualTo(Rows.value(JSON.readTree("12.3")));
        assertThat(Rows.value(42L)).isEqualTo(Rows.value(JSON.readTree("\"42\"")));
        assertThat(Rows.value(Timestamp.valueOf("2026-11-29 10:15:00")))
                .isEqualTo(Rows.value(JSON.readTree("\"2026-11-29T10:15:00Z\"")))
                .isEqualTo("2026-11-29 10:15:00");
        assertThat(Rows.value(JSON.readTree("\"2026-11-29T10:15:30.120Z\"")))
                .isEqualTo("2026-11-29 10:15:30.12");
        assertThat(Rows.value((Object) null))
                .isEqualTo(Rows.value(JSON.readTree("null")))
                .isEqualTo("NULL");
        assertThat(Rows.value("D'Arcy")).isEqualTo("D'Arcy");
    }

    @Test
    void differencesAreCountedAsMultisets() {
        List<List<String>> left = List.of(List.of("a"), List.of("a"), List.of("b"));
        List<List<String>> right = List.of(List.of("a"), List.of("c"));

        assertThat(Rows.missingFrom(right, left)).containsExactly(List.of("a"), List.of("b"));
        assertThat(Rows.missingFrom(left, right)).containsExactly(List.of("c"));
    }

    @Test
    void durationsInWords() {
        assertThat(OracleCommand.duration("90s")).hasSeconds(90);
        assertThat(OracleCommand.duration("2m")).hasMinutes(2);
        assertThat(OracleCommand.duration("PT1H")).hasHours(1);
    }
}
