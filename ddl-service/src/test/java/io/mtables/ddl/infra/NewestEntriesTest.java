package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NewestEntriesTest {

    @Test
    void keepsTheNewestOnlyAndAKeyPutAgainIsNewAgain() {
        NewestEntries<String, Integer> kept = new NewestEntries<>(2);
        kept.put("a", 1);
        kept.put("b", 2);
        kept.put("a", 3); // a is the newest now
        kept.put("c", 4);

        assertThat(kept.size()).isEqualTo(2);
        assertThat(kept.get("b")).isEmpty();
        assertThat(kept.get("a")).contains(3);
        assertThat(kept.get("c")).contains(4);
    }

    @Test
    void addAndPutIfAbsentLeaveWhatIsThere() {
        NewestEntries<String, Integer> kept = new NewestEntries<>(3);

        assertThat(kept.add("a", 1)).isTrue();
        assertThat(kept.add("a", 2)).isFalse();
        kept.putIfAbsent("a", 3);

        assertThat(kept.get("a")).contains(1);
        assertThat(kept.containsKey("a")).isTrue();
    }
}
