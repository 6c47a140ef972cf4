package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.SwitchStarted;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whose load is whose: the job serving a table and the staged job of its switch-over each keep
 * their own, a staged job that failed leaves none behind; a running refresh ends with its job, or
 * when it stops being reported.
 */
class LongWorkReportsTest {

    private static final String TABLE = "default_catalog.shop.totals";
    private static final String SERVING = "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
    private static final String STAGED = "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b";
    private static final String RETRIED = "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c";
    private static final Instant T = Instant.parse("2026-12-07T05:00:00Z");

    private Instant now = T;
    private final RefreshStatusProjection statuses =
            new RefreshStatusProjection(
                    new Clock() {
                        @Override
                        public Instant instant() {
                            return now;
                        }

                        @Override
                        public ZoneId getZone() {
                            return ZoneOffset.UTC;
                        }

                        @Override
                        public Clock withZone(ZoneId zone) {
                            return this;
                        }
                    });

    @Test
    void theServingJobsLoadAndTheStagedJobsAreEachTheirOwn() {
        statuses.apply(started(SERVING, RefreshPlan.Mode.CONTINUOUS));
        statuses.apply(load(SERVING, 1, 0, 900, true, 10));
        statuses.apply(staged(STAGED));
        statuses.apply(load(STAGED, 2, 600, 400, false, 20));

        assertThat(statuses.loadEstimate(TABLE).orElseThrow().latest().jobId()).isEqualTo(SERVING);
        assertThat(statuses.rebuildEstimate(TABLE).orElseThrow().percent()).isEqualTo(40.0);

        // The staged job fails: its load is over, and the serving job's stays its own, also once
        // a new staged job is started and reports later than the serving job did.
        statuses.apply(
                new RefreshFailed(
                        TABLE,
                        2,
                        RefreshPlan.Mode.CONTINUOUS,
                        STAGED,
                        "the new query's job stopped before the switch",
                        1,
                        T.plusSeconds(25),
                        null));
        assertThat(statuses.rebuildEstimate(TABLE)).isEmpty();
        statuses.apply(staged(RETRIED));
        statuses.apply(load(RETRIED, 2, 900, 100, false, 40));
        assertThat(statuses.loadEstimate(TABLE).orElseThrow().latest().jobId()).isEqualTo(SERVING);
        assertThat(statuses.rebuildEstimate(TABLE).orElseThrow().latest().jobId())
                .isEqualTo(RETRIED);
    }

    @Test
    void aRunningRefreshEndsWithItsJobOrWhenItIsNoLongerReported() {
        statuses.apply(started(SERVING, RefreshPlan.Mode.FULL));
        statuses.apply(new RefreshProgress(TABLE, 1, SERVING, 250, 1_000L, T, T.plusSeconds(5)));
        now = T.plusSeconds(30);
        assertThat(statuses.refreshEstimate(TABLE).orElseThrow().percent()).contains(25.0);
        statuses.apply(
                new RefreshSucceeded(
                        TABLE,
                        1,
                        RefreshPlan.Mode.FULL,
                        Map.of(),
                        3,
                        1_000,
                        T,
                        T.plusSeconds(20),
                        T,
                        SERVING));
        assertThat(statuses.refreshEstimate(TABLE)).isEmpty();

        statuses.apply(started(STAGED, RefreshPlan.Mode.FULL));
        statuses.apply(new RefreshProgress(TABLE, 1, STAGED, 10, null, T, T.plusSeconds(40)));
        now = T.plusSeconds(99);
        assertThat(statuses.refreshEstimate(TABLE)).isPresent();
        now = T.plusSeconds(101);
        assertThat(statuses.refreshEstimate(TABLE))
                .as("silent for a minute: its job was lost without a word")
                .isEmpty();
    }

    private static JobStarted started(String job, RefreshPlan.Mode mode) {
        return new JobStarted(TABLE, 1, mode, job, "mt:" + TABLE + ":v1:q", null, T);
    }

    private static SwitchStarted staged(String job) {
        return new SwitchStarted(
                TABLE,
                2,
                1,
                "INCOMPATIBLE",
                job,
                "mt:" + TABLE + ":v2:q",
                TABLE + "__mt_v2",
                T,
                null,
                null);
    }

    private static LoadProgress load(
            String job, long version, long behind, long read, boolean caughtUp, int second) {
        return new LoadProgress(TABLE, version, job, behind, read, caughtUp, T.plusSeconds(second));
    }
}
