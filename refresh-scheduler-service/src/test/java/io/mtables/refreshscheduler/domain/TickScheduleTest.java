package io.mtables.refreshscheduler.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.schemas.tick.RefreshTick.Reason;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TickScheduleTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final String TABLE = "default_catalog.shop.daily";

    /**
     * Flink's conversion of each allowed period (IntervalFreshness.convertFreshnessToCron), and the
     * boundaries after 10:07:13.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "1, SECOND, 0/1 * * * * ? *, 2026-11-29T10:07:14Z, 2026-11-29T10:07:15Z",
        "30, SECOND, 0/30 * * * * ? *, 2026-11-29T10:07:30Z, 2026-11-29T10:08:00Z",
        "1, MINUTE, 0 0/1 * * * ? *, 2026-11-29T10:08:00Z, 2026-11-29T10:09:00Z",
        "5, MINUTE, 0 0/5 * * * ? *, 2026-11-29T10:10:00Z, 2026-11-29T10:15:00Z",
        "15, MINUTE, 0 0/15 * * * ? *, 2026-11-29T10:15:00Z, 2026-11-29T10:30:00Z",
        "30, MINUTE, 0 0/30 * * * ? *, 2026-11-29T10:30:00Z, 2026-11-29T11:00:00Z",
        "1, HOUR, 0 0 0/1 * * ? *, 2026-11-29T11:00:00Z, 2026-11-29T12:00:00Z",
        "4, HOUR, 0 0 0/4 * * ? *, 2026-11-29T12:00:00Z, 2026-11-29T16:00:00Z",
        "12, HOUR, 0 0 0/12 * * ? *, 2026-11-29T12:00:00Z, 2026-11-30T00:00:00Z",
        "1, DAY, 0 0 0 * * ? *, 2026-11-30T00:00:00Z, 2026-12-01T00:00:00Z",
    })
    void ticksFallOnThePeriodBoundaries(
            int interval, String unit, String cron, Instant first, Instant second) {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ofSeconds(30));
        Instant now = Instant.parse("2026-11-29T10:07:13Z");
        schedule.rememberFired(tick(TABLE, latestBefore(cron, now)));
        schedule.plan(full(TABLE, 1, interval, unit, cron, Map.of()), now);

        assertThat(schedule.nextDue()).contains(first);
        assertThat(schedule.due(first.minusMillis(1))).isEmpty();
        assertThat(schedule.due(first))
                .extracting(RefreshTick::scheduledTime, RefreshTick::reason)
                .containsExactly(Tuple.tuple(first, Reason.SCHEDULED));
        assertThat(schedule.due(second))
                .extracting(RefreshTick::scheduledTime)
                .containsExactly(second);
    }

    @Test
    void thePartitionIsThePeriodThatJustEndedInTheConfiguredZone() {
        TickSchedule schedule = new TickSchedule(ZoneId.of("Europe/Paris"), Duration.ZERO);
        RefreshPlan plan = full(TABLE, 1, 1, "DAY", "0 0 0 * * ? *", Map.of("ds", "yyyy-MM-dd"));
        Instant now = Instant.parse("2026-11-29T10:00:00Z");
        schedule.rememberFired(
                tick(TABLE, Instant.parse("2026-11-28T23:00:00Z"))); // midnight in Paris

        schedule.plan(plan, now);
        List<RefreshTick> ticks = schedule.due(Instant.parse("2026-11-29T23:00:00Z"));

        assertThat(ticks)
                .singleElement()
                .satisfies(
                        t -> {
                            assertThat(t.scheduledTime())
                                    .isEqualTo(Instant.parse("2026-11-29T23:00:00Z"));
                            assertThat(t.partition())
                                    .containsExactly(Map.entry("ds", "2026-11-29"));
                            assertThat(t.tickId()).isEqualTo(TABLE + "@2026-11-29T23:00:00Z");
                        });
    }

    /**
     * The plan's own time zone wins over the configured one (kept for plans written before plans
     * carried it).
     */
    @Test
    void aPlanInItsOwnTimeZoneTicksAtItsMidnight() {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ZERO);
        RefreshPlan utcPlan = full(TABLE, 1, 1, "DAY", "0 0 0 * * ? *", Map.of("ds", "yyyy-MM-dd"));
        RefreshPlan plan =
                RefreshPlanBuilder.builder(utcPlan)
                        .definitionVersion(1)
                        .freshnessDeclared(true)
                        .checkpointInterval(null)
                        .upsertKey(null)
                        .upstreamTables(List.of())
                        .warnings(List.of())
                        .plannedAt(Instant.EPOCH)
                        .incremental(null)
                        .timeZone("Asia/Tokyo")
                        .miniBatch(null)
                        .build();
        schedule.rememberFired(
                tick(TABLE, Instant.parse("2026-11-28T15:00:00Z"))); // midnight in Tokyo

        schedule.plan(plan, Instant.parse("2026-11-29T10:00:00Z"));

        assertThat(schedule.due(Instant.parse("2026-11-29T23:59:00Z")))
                .singleElement()
                .satisfies(
                        t -> {
                            assertThat(t.scheduledTime())
                                    .isEqualTo(Instant.parse("2026-11-29T15:00:00Z"));
                            assertThat(t.partition())
                                    .containsExactly(Map.entry("ds", "2026-11-29"));
                        });
    }

    @Test
    void afterAnyDowntimeATableGetsOneCatchUpForTheLatestMissedBoundaryThenItsSchedule() {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ofSeconds(60));
        schedule.rememberFired(tick(TABLE, Instant.parse("2026-11-29T06:00:00Z")));
        Instant now = Instant.parse("2026-11-29T10:07:13Z"); // four hourly boundaries missed

        schedule.plan(full(TABLE, 1, 1, "HOUR", "0 0 0/1 * * ? *", Map.of()), now);
        List<RefreshTick> fired = new ArrayList<>(schedule.due(now.plusSeconds(60)));
        fired.addAll(schedule.due(Instant.parse("2026-11-29T11:00:00Z")));

        assertThat(fired)
                .extracting(RefreshTick::reason, RefreshTick::scheduledTime)
                .containsExactly(
                        Tuple.tuple(Reason.CATCH_UP, Instant.parse("2026-11-29T10:00:00Z")),
                        Tuple.tuple(Reason.SCHEDULED, Instant.parse("2026-11-29T11:00:00Z")));
    }

    @Test
    void catchUpsOfManyTablesAreSpreadOverTheWindow() {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ofSeconds(40));
        Instant now = Instant.parse("2026-11-29T10:07:13Z");
        for (int i = 0; i < 10_000; i++) {
            schedule.plan(
                    full("default_catalog.shop.t" + i, 1, 1, "MINUTE", "0 0/1 * * * ? *", Map.of()),
                    now);
        }

        int firstSecond = schedule.due(now.plusSeconds(1)).size();
        int wholeWindow = firstSecond + schedule.due(now.plusSeconds(40)).size();

        assertThat(wholeWindow)
                .as("every table once within the window, before the next boundary")
                .isEqualTo(10_000);
        assertThat(firstSecond)
                .as("about 1/40 of the tables in the first second")
                .isBetween(100, 450);
    }

    @Test
    void suspendDropAndModeChangeUnscheduleAtOnceAndResumeCatchesUpOnce() {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ZERO);
        RefreshPlan v1 = full(TABLE, 1, 1, "MINUTE", "0 0/1 * * * ? *", Map.of());
        Instant now = Instant.parse("2026-11-29T10:00:30Z");
        schedule.rememberFired(tick(TABLE, Instant.parse("2026-11-29T10:00:00Z")));
        schedule.plan(v1, now);
        assertThat(schedule.size()).isEqualTo(1);

        schedule.plan(withStatus(v1, 2, RefreshPlan.Status.SUSPENDED), now);
        assertThat(schedule.size()).isZero();
        assertThat(schedule.due(Instant.parse("2026-11-29T10:05:00Z"))).isEmpty();

        schedule.plan(
                withStatus(v1, 3, RefreshPlan.Status.ACTIVE),
                Instant.parse("2026-11-29T10:05:30Z"));
        assertThat(schedule.due(Instant.parse("2026-11-29T10:05:30Z")))
                .extracting(RefreshTick::reason, RefreshTick::planVersion)
                .containsExactly(Tuple.tuple(Reason.CATCH_UP, 3L));

        schedule.plan(withStatus(v1, 4, RefreshPlan.Status.DROPPED), now);
        assertThat(schedule.size()).isZero();
        schedule.plan(withStatus(v1, 3, RefreshPlan.Status.ACTIVE), now);
        assertThat(schedule.size()).as("an older plan arriving late changes nothing").isZero();
    }

    @Test
    void aNewFullTableIsFilledAtOnceWithThePeriodThatHasStarted() {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ZERO);
        Instant now = Instant.parse("2026-11-29T10:07:13Z");

        schedule.plan(full(TABLE, 1, 1, "HOUR", "0 0 0/1 * * ? *", Map.of()), now);

        assertThat(schedule.due(now))
                .extracting(RefreshTick::reason, RefreshTick::scheduledTime)
                .containsExactly(
                        Tuple.tuple(Reason.CATCH_UP, Instant.parse("2026-11-29T10:00:00Z")));
    }

    // ---- chains ----

    private static final String HOURLY = "0 0 0/1 * * ? *";
    private static final String A = "default_catalog.shop.a";
    private static final String B = "default_catalog.shop.b";
    private static final String C = "default_catalog.shop.c";

    /**
     * A, B reading A, C reading B, all hourly, all owned here: one boundary refreshes them in that
     * order.
     */
    private TickSchedule chainOfThree(Instant now) {
        TickSchedule schedule = new TickSchedule(UTC, Duration.ZERO);
        List<RefreshPlan> plans =
                List.of(
                        full(A, 1, 1, "HOUR", HOURLY, Map.of()),
                        reading(full(B, 1, 1, "HOUR", HOURLY, Map.of()), A),
                        reading(full(C, 1, 1, "HOUR", HOURLY, Map.of()), B));
        for (RefreshPlan plan : plans) {
            schedule.rememberFired(tick(plan.table(), Instant.parse("2026-11-29T10:00:00Z")));
            schedule.knowPlan(plan);
            schedule.plan(plan, now);
        }
        return schedule;
    }

    @Test
    void aChainOfThreeRefreshesInDependencyOrderWithTheRootsScheduledTime() {
        Instant boundary = Instant.parse("2026-11-29T11:00:00Z");
        TickSchedule schedule = chainOfThree(Instant.parse("2026-11-29T10:30:00Z"));

        assertThat(schedule.due(boundary))
                .extracting(RefreshTick::table, RefreshTick::reason)
                .containsExactly(Tuple.tuple(A, Reason.SCHEDULED));
        assertThat(schedule.heldCount()).isEqualTo(2);
        assertThat(schedule.due(boundary.plusSeconds(30))).as("A has not refreshed yet").isEmpty();

        schedule.refreshEnded(A, boundary);
        List<RefreshTick> afterA = schedule.due(boundary.plusSeconds(40));
        assertThat(afterA)
                .extracting(RefreshTick::table, RefreshTick::reason, RefreshTick::scheduledTime)
                .containsExactly(Tuple.tuple(B, Reason.UPSTREAM, boundary));
        assertThat(schedule.due(boundary.plusSeconds(50))).as("C waits for B").isEmpty();

        schedule.refreshEnded(B, boundary);
        assertThat(schedule.due(boundary.plusSeconds(60)))
                .extracting(RefreshTick::table, RefreshTick::reason, RefreshTick::scheduledTime)
                .containsExactly(Tuple.tuple(C, Reason.UPSTREAM, boundary));
        assertThat(schedule.heldCount()).isZero();
    }

    @Test
    void aFailedUpstreamRefreshLetsItsReadersGoAhead() {
        Instant boundary = Instant.parse("2026-11-29T11:00:00Z");
        TickSchedule schedule = chainOfThree(Instant.parse("2026-11-29T10:30:00Z"));
        schedule.due(boundary);

        schedule.refreshEnded(
                A, boundary); // a RefreshFailed for the 11:00 tick counts as an outcome

        assertThat(schedule.due(boundary.plusSeconds(5)))
                .extracting(RefreshTick::table)
                .containsExactly(B);
    }

    @Test
    void anUpstreamThatNeverReportsHoldsItsReaderUntilItsNextBoundaryAtMost() {
        Instant boundary = Instant.parse("2026-11-29T11:00:00Z");
        Instant next = Instant.parse("2026-11-29T12:00:00Z");
        TickSchedule schedule = chainOfThree(Instant.parse("2026-11-29T10:30:00Z"));
        schedule.due(boundary);

        assertThat(schedule.due(next.minusMillis(1))).isEmpty();
        List<RefreshTick> atNext = schedule.due(next);

        assertThat(atNext)
                .extracting(RefreshTick::table, RefreshTick::reason, RefreshTick::scheduledTime)
                .contains(
                        Tuple.tuple(B, Reason.SCHEDULED, boundary),
                        Tuple.tuple(A, Reason.SCHEDULED, next));
    }

    @Test
    void aDailyUpstreamHoldsAnHourlyReaderOnlyAtMidnight() {
        String daily = "default_catalog.shop.daily_up";
        TickSchedule schedule = new TickSchedule(UTC, Duration.ZERO);
        Instant now = Instant.parse("2026-11-29T22:30:00Z");
        RefreshPlan up = full(daily, 1, 1, "DAY", "0 0 0 * * ? *", Map.of());
        RefreshPlan reader = reading(full(B, 1, 1, "HOUR", HOURLY, Map.of()), daily);
        schedule.knowPlan(up);
        schedule.rememberFired(tick(B, Instant.parse("2026-11-29T22:00:00Z")));
        schedule.plan(reader, now);

        assertThat(schedule.due(Instant.parse("2026-11-29T23:00:00Z")))
                .extracting(RefreshTick::table)
                .containsExactly(B);
        assertThat(schedule.due(Instant.parse("2026-11-30T00:00:00Z")))
                .as("the daily table refreshes at midnight too")
                .isEmpty();
        schedule.refreshEnded(daily, Instant.parse("2026-11-30T00:00:00Z"));
        assertThat(schedule.due(Instant.parse("2026-11-30T00:02:00Z")))
                .extracting(RefreshTick::reason)
                .containsExactly(Reason.UPSTREAM);
    }

    @Test
    void aContinuousOrSuspendedUpstreamHoldsNothingAndAnUpstreamAlreadyRefreshedNeither() {
        Instant boundary = Instant.parse("2026-11-29T11:00:00Z");
        TickSchedule schedule = chainOfThree(Instant.parse("2026-11-29T10:30:00Z"));
        schedule.knowPlan(
                withStatus(
                        full(A, 1, 1, "HOUR", HOURLY, Map.of()), 2, RefreshPlan.Status.SUSPENDED));
        schedule.refreshEnded(B, boundary); // B already refreshed for 11:00 (before a restart, say)

        assertThat(schedule.due(boundary))
                .as("A's own tick, and neither reader held")
                .extracting(RefreshTick::table)
                .containsExactlyInAnyOrder(A, B, C);
        assertThat(schedule.heldCount()).isZero();
    }

    private static RefreshPlan reading(RefreshPlan p, String... upstream) {
        return RefreshPlanBuilder.builder(p)
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .upsertKey(null)
                .upstreamTables(List.of(upstream))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .incremental(null)
                .timeZone(null)
                .miniBatch(null)
                .build();
    }

    private static Instant latestBefore(String cron, Instant now) {
        TickSchedule probe = new TickSchedule(UTC, Duration.ZERO);
        probe.plan(full("probe.probe.probe", 1, 1, "DAY", cron, Map.of()), now);
        return probe.due(now).get(0).scheduledTime();
    }

    private static RefreshTick tick(String table, Instant at) {
        return new RefreshTick(table, 1, at, Map.of(), Reason.SCHEDULED, table + "@" + at);
    }

    static RefreshPlan full(
            String table,
            long version,
            int interval,
            String unit,
            String cron,
            Map<String, String> formatters) {
        return RefreshPlanBuilder.builder()
                .table(table)
                .definitionVersion(version)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.FULL)
                .freshness(new RefreshPlan.Freshness(interval, unit))
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .cron(cron)
                .partitionFormatters(formatters)
                .changelogMode("[I]")
                .upsertKey(null)
                .upstreamTables(List.of())
                .reasons(List.of("test"))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .build();
    }

    private static RefreshPlan withStatus(RefreshPlan p, long version, RefreshPlan.Status status) {
        return RefreshPlanBuilder.builder(p)
                .definitionVersion(version)
                .status(status)
                .mode(status == RefreshPlan.Status.ACTIVE ? p.mode() : null)
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .upsertKey(null)
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .incremental(null)
                .timeZone(null)
                .miniBatch(null)
                .build();
    }
}
