package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A table read anew because an input's rows were replaced is a rebuild in DESCRIBE, not the last
 * change of its own query; a switch-over to a new query that a rebuild took over ends both.
 */
class RefreshStatusProjectionTest {

    private static final String TABLE = "default_catalog.shop.orders_per_day";
    private static final String INPUT = "default_catalog.shop.orders_ods";
    private static final String JOB = "5b2f0c9d1e7a4b3c8d6e0f1a2b3c4d5e";
    private static final Instant AT = Instant.parse("2026-12-02T15:00:00Z");

    private final RefreshStatusProjection statuses = new RefreshStatusProjection();

    @Test
    void aRebuildIsShownUnderWayThenDoneAndLeavesTheLastChangeAlone() {
        statuses.apply(newQuery(2, null));
        statuses.apply(switched(2, AT.plusSeconds(30)));

        statuses.apply(newQuery(2, INPUT));
        assertThat(statuses.rebuild(TABLE))
                .hasValueSatisfying(
                        text ->
                                assertThat(text)
                                        .startsWith("rebuilding since " + AT)
                                        .contains("the rows of " + INPUT + " were replaced")
                                        .contains("the query of v2 is read anew"));

        statuses.apply(switched(2, AT.plusSeconds(41)));
        assertThat(statuses.rebuild(TABLE))
                .hasValue(
                        "rebuilt at "
                                + AT.plusSeconds(41)
                                + ": the rows of "
                                + INPUT
                                + " were replaced, and the query of v2 was read anew from them in"
                                + " 41 s");
        assertThat(statuses.switchOver(TABLE))
                .as("the table's own last change")
                .hasValueSatisfying(
                        text ->
                                assertThat(text)
                                        .startsWith("switched over at " + AT.plusSeconds(30)));
    }

    @Test
    void aRestoreBesideTheTableIsShownUnderWayThenAsTheStateRestored() {
        String savepoint = "file:/sp/savepoint-old";
        statuses.apply(
                new SwitchStarted(
                        TABLE,
                        4,
                        3,
                        "COMPATIBLE",
                        JOB,
                        "mt:" + TABLE + ":v4:q9c1d2e3f4a5b",
                        TABLE + "__mt_v4",
                        AT,
                        null,
                        savepoint));
        assertThat(statuses.switchOver(TABLE))
                .hasValueSatisfying(
                        text ->
                                assertThat(text)
                                        .startsWith("restoring beside the table: since " + AT)
                                        .contains("goes on from v3's savepoint " + savepoint)
                                        .contains("readers read v3's rows"));

        statuses.apply(switched(4, AT.plusSeconds(12)));
        assertThat(statuses.switchOver(TABLE))
                .hasValueSatisfying(
                        text ->
                                assertThat(text)
                                        .startsWith("state restored at " + AT.plusSeconds(12))
                                        .contains("went on from v3's savepoint " + savepoint)
                                        .contains("readers read it after 12 s")
                                        .contains("its job goes on from file:/sp/savepoint-1"));
    }

    @Test
    void aRebuildThatTookOverANewQuerysStagingEndsItToo() {
        statuses.apply(newQuery(3, null));
        statuses.apply(newQuery(3, INPUT));
        statuses.apply(switched(3, AT.plusSeconds(50)));

        assertThat(statuses.rebuild(TABLE))
                .hasValueSatisfying(text -> assertThat(text).startsWith("rebuilt at"));
        assertThat(statuses.switchOver(TABLE))
                .hasValueSatisfying(text -> assertThat(text).startsWith("switched over at"));
    }

    @Test
    void aTableNeverRebuiltShowsNone() {
        statuses.apply(newQuery(2, null));

        assertThat(statuses.rebuild(TABLE)).isEmpty();
    }

    private static SwitchStarted newQuery(long version, String replacedInput) {
        return new SwitchStarted(
                TABLE,
                version,
                version - 1,
                replacedInput == null ? "INCOMPATIBLE" : null,
                JOB,
                "mt:" + TABLE + ":v" + version + ":q9c1d2e3f4a5b",
                TABLE + "__mt_v" + version,
                AT,
                replacedInput,
                null);
    }

    private static SwitchedOver switched(long version, Instant at) {
        return new SwitchedOver(TABLE, version, version - 1, "file:/sp/savepoint-1", AT, at, 0.4);
    }
}
