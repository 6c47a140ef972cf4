package io.mtables.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.plan.SyntheticKey;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The documented encoding: NULL-safe, and no two keys share a value. */
class SyntheticKeyTest {

    @Test
    void encodesNullApartFromEveryText() {
        assertThat(SyntheticKey.encode(Arrays.asList(null, "ab"))).isEqualTo("~2:ab");
        assertThat(SyntheticKey.encode(Arrays.asList("", null))).isEqualTo("0:~");
        assertThat(SyntheticKey.encode(List.of())).isEmpty();
    }

    @Test
    void keysThatLookAlikeStillDiffer() {
        List<List<String>> keys =
                List.of(
                        Arrays.asList("a", "bc"),
                        Arrays.asList("ab", "c"),
                        Arrays.asList("~", null),
                        Arrays.asList(null, "~"),
                        Arrays.asList(null, null),
                        Arrays.asList("", ""),
                        Arrays.asList("1:a", ""),
                        Arrays.asList("", "1:a"),
                        Arrays.asList("~", "~"),
                        Arrays.asList("null", null));
        Set<String> encoded = new HashSet<>();
        keys.forEach(key -> encoded.add(SyntheticKey.encode(key)));
        assertThat(encoded).hasSameSizeAs(keys);
    }

    @Test
    void theJobsExpressionNamesEachColumnOfTheQuery() {
        assertThat(SyntheticKey.expression(List.of(), "`q`")).isEqualTo("''");
        assertThat(SyntheticKey.expression(List.of("first name"), "`q`"))
                .isEqualTo(
                        "IF(`q`.`first name` IS NULL, '~', CONCAT(CAST(CHAR_LENGTH(CAST(`q`.`first"
                                + " name` AS STRING)) AS STRING), ':', CAST(`q`.`first name` AS"
                                + " STRING)))");
        assertThat(SyntheticKey.expression(List.of("a", "b"), "`q`"))
                .startsWith("CONCAT(IF(`q`.`a` IS NULL")
                .contains(", IF(`q`.`b` IS NULL");
    }
}
