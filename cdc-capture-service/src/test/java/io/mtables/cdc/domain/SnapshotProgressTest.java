package io.mtables.cdc.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The source offsets PostgreSQL's connector writes, inside and after its snapshot. */
class SnapshotProgressTest {

    @Test
    void aSnapshotRowBeforeTheLastIsUnfinished() {
        assertThat(
                        SnapshotProgress.unfinished(
                                Map.of(
                                        "lsn",
                                        1L,
                                        "snapshot",
                                        "INITIAL",
                                        "last_snapshot_record",
                                        false,
                                        "snapshot_completed",
                                        false)))
                .isTrue();
    }

    @Test
    void theLastSnapshotRowOrACompletedSnapshotIsNot() {
        assertThat(
                        SnapshotProgress.unfinished(
                                Map.of(
                                        "snapshot", "INITIAL",
                                        "last_snapshot_record", true,
                                        "snapshot_completed", false)))
                .isFalse();
        assertThat(
                        SnapshotProgress.unfinished(
                                Map.of(
                                        "snapshot", "INITIAL",
                                        "last_snapshot_record", false,
                                        "snapshot_completed", true)))
                .isFalse();
    }

    @Test
    void aStreamedChangeOrNoOffsetIsNot() {
        assertThat(SnapshotProgress.unfinished(Map.of("lsn", 5L, "lsn_proc", 5L))).isFalse();
        assertThat(SnapshotProgress.unfinished(null)).isFalse();
    }

    @Test
    void aSnapshotRowTheLastIncludedIsInTheSnapshotAStreamedChangeIsNot() {
        assertThat(
                        SnapshotProgress.inSnapshot(
                                Map.of("snapshot", "INITIAL", "last_snapshot_record", true)))
                .isTrue();
        assertThat(SnapshotProgress.inSnapshot(Map.of("snapshot", "INITIAL"))).isTrue();
        assertThat(
                        SnapshotProgress.inSnapshot(
                                Map.of("snapshot", "INITIAL", "snapshot_completed", true)))
                .isFalse();
        assertThat(SnapshotProgress.inSnapshot(Map.of("lsn", 5L, "lsn_proc", 5L))).isFalse();
        assertThat(SnapshotProgress.inSnapshot(null)).isFalse();
    }
}
