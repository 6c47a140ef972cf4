package io.mtables.refreshscheduler.domain;

import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.schemas.tick.TickIds;
import java.text.ParseException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TimeZone;
import java.util.function.Predicate;
import org.quartz.CronExpression;

/**
 * When each FULL table refreshes next. Period boundaries come from the plan's Quartz cron
 * expression, evaluated by Quartz's {@link CronExpression} in the plan's time zone (the configured
 * one for plans written before plans carried it; no cron arithmetic of our own). After any gap
 * (downtime, a take-over, a resume, a new plan) a table gets at most one CATCH_UP tick, for the
 * latest boundary it missed, placed within the catch-up window at an offset of its own so that
 * thousands of tables do not fire at once.
 *
 * <p>A table that reads other materialized tables refreshes after them: its tick for a boundary is
 * held while an upstream FULL table that refreshes at the same boundary has not reported the
 * outcome of that refresh (success or failure), then fires as UPSTREAM with the same scheduled
 * time, so its lag counts from the root's boundary. A held tick waits at most until the table's
 * next boundary, then fires as it was. Not thread-safe.
 */
public class TickSchedule {

    /** One scheduled table. */
    private static final class Entry {
        final RefreshPlan plan;
        final CronExpression cron;
        Instant fireAt;
        Instant boundary;
        RefreshTick.Reason reason;

        Entry(RefreshPlan plan, CronExpression cron) {
            this.plan = plan;
            this.cron = cron;
        }
    }

    /** For plans written before plans carried their time zone. */
    private final ZoneId zone;

    private final Duration catchUpWindow;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, RefreshTick> lastFired = new HashMap<>();

    /**
     * The newest plan version seen per table, also of unscheduled ones: an older plan arriving late
     * changes nothing.
     */
    private final Map<String, Long> planVersions = new HashMap<>();

    private final PriorityQueue<Entry> queue =
            new PriorityQueue<>((a, b) -> a.fireAt.compareTo(b.fireAt));

    /** Ticks waiting for upstream refreshes, by table. */
    private final Map<String, Held> held = new HashMap<>();

    /**
     * The current plan of every table, also of those scheduled elsewhere: whether an upstream
     * refreshes at a boundary.
     */
    private final Map<String, RefreshPlan> upstreamPlans = new HashMap<>();

    private final Map<String, CronExpression> upstreamCrons = new HashMap<>();

    /** Per table, the latest scheduled time for which a FULL refresh outcome was reported. */
    private final Map<String, Instant> refreshedUpTo = new HashMap<>();

    /**
     * A tick held back until its upstream tables have refreshed for its boundary, or until {@code
     * until}.
     */
    private record Held(
            RefreshPlan plan, Instant boundary, RefreshTick.Reason reason, Instant until) {}

    public TickSchedule(ZoneId zone, Duration catchUpWindow) {
        this.zone = zone;
        this.catchUpWindow = catchUpWindow;
    }

    /** What fired last for a table, read back from the last-ticks topic. */
    public void rememberFired(RefreshTick tick) {
        lastFired.merge(
                tick.table(),
                tick,
                (known, next) ->
                        next.scheduledTime().isAfter(known.scheduledTime()) ? next : known);
    }

    /**
     * A table's plan: an ACTIVE FULL plan is scheduled (its next boundary, or one catch-up when a
     * boundary passed since the last tick); any other plan unschedules the table at once.
     */
    public void plan(RefreshPlan plan, Instant now) {
        Long known = planVersions.get(plan.table());
        if (known != null && known > plan.definitionVersion()) {
            return;
        }
        planVersions.put(plan.table(), plan.definitionVersion());
        unschedule(plan.table());
        if (plan.status() != RefreshPlan.Status.ACTIVE
                || plan.mode() != RefreshPlan.Mode.FULL
                || plan.cron() == null) {
            return;
        }
        Entry entry = new Entry(plan, cron(plan));
        Instant latestBoundary = latestBoundaryAtOrBefore(entry, now);
        RefreshTick last = lastFired.get(plan.table());
        boolean missed =
                latestBoundary != null
                        && (last == null || last.scheduledTime().isBefore(latestBoundary));
        if (missed) {
            entry.boundary = latestBoundary;
            entry.reason = RefreshTick.Reason.CATCH_UP;
            entry.fireAt = now.plus(spread(plan.table()));
        } else {
            entry.boundary = next(entry, now);
            entry.reason = RefreshTick.Reason.SCHEDULED;
            entry.fireAt = entry.boundary;
        }
        entries.put(plan.table(), entry);
        queue.add(entry);
    }

    /**
     * Stops scheduling the tables that match, and forgets their plans (they moved to another
     * scheduler).
     */
    public void release(Predicate<String> tables) {
        List.copyOf(entries.keySet()).stream().filter(tables).forEach(this::unschedule);
        planVersions.keySet().removeIf(tables);
    }

    /** When the next tick is due; empty when nothing is scheduled. */
    public Optional<Instant> nextDue() {
        return Optional.ofNullable(queue.peek()).map(entry -> entry.fireAt);
    }

    /**
     * The ticks due at {@code now}, each table's next one scheduled: held ticks whose upstream
     * tables have refreshed (or whose wait is over), then boundaries reached, held back where an
     * upstream refreshes at the same boundary.
     */
    public List<RefreshTick> due(Instant now) {
        List<RefreshTick> ticks = new ArrayList<>();
        for (Held waiting : List.copyOf(held.values())) {
            boolean upstreamDone = upstreamsPending(waiting.plan, waiting.boundary).isEmpty();
            if (upstreamDone || !now.isBefore(waiting.until)) {
                held.remove(waiting.plan.table());
                ticks.add(
                        fire(
                                waiting.plan,
                                waiting.boundary,
                                upstreamDone ? RefreshTick.Reason.UPSTREAM : waiting.reason));
            }
        }
        while (!queue.isEmpty() && !queue.peek().fireAt.isAfter(now)) {
            Entry entry = queue.poll();
            Instant boundary = entry.boundary;
            RefreshTick.Reason reason = entry.reason;
            entry.boundary = next(entry, entry.boundary);
            entry.reason = RefreshTick.Reason.SCHEDULED;
            entry.fireAt = entry.boundary;
            queue.add(entry);
            if (upstreamsPending(entry.plan, boundary).isEmpty()) {
                ticks.add(fire(entry.plan, boundary, reason));
            } else {
                held.put(
                        entry.plan.table(), new Held(entry.plan, boundary, reason, entry.boundary));
            }
        }
        return ticks;
    }

    private RefreshTick fire(RefreshPlan plan, Instant boundary, RefreshTick.Reason reason) {
        RefreshTick tick =
                new RefreshTick(
                        plan.table(),
                        plan.definitionVersion(),
                        boundary,
                        PeriodPartition.of(plan, boundary, zoneOf(plan)),
                        reason,
                        TickIds.scheduled(plan.table(), boundary));
        lastFired.put(tick.table(), tick);
        return tick;
    }

    /**
     * A table's current plan, whoever schedules it: readers of the table learn whether it refreshes
     * at their boundaries.
     */
    public void knowPlan(RefreshPlan plan) {
        RefreshPlan known = upstreamPlans.get(plan.table());
        if (known != null && known.definitionVersion() > plan.definitionVersion()) {
            return;
        }
        upstreamPlans.put(plan.table(), plan);
        upstreamCrons.remove(plan.table());
    }

    /** A FULL refresh of {@code table} for {@code scheduledTime} ended (succeeded or failed). */
    public void refreshEnded(String table, Instant scheduledTime) {
        refreshedUpTo.merge(table, scheduledTime, (a, b) -> a.isAfter(b) ? a : b);
    }

    /** The ticks held for upstream refreshes now. */
    public int heldCount() {
        return held.size();
    }

    /**
     * The upstream tables of {@code plan} that refresh at {@code boundary} (ACTIVE FULL tables
     * whose cron has that boundary) and have not reported the outcome of that refresh yet.
     */
    private List<String> upstreamsPending(RefreshPlan plan, Instant boundary) {
        if (plan.upstreamTables() == null || plan.upstreamTables().isEmpty()) {
            return List.of();
        }
        List<String> pending = new ArrayList<>();
        for (String upstream : plan.upstreamTables()) {
            RefreshPlan upstreamPlan = upstreamPlans.get(upstream);
            if (upstreamPlan == null
                    || upstreamPlan.status() != RefreshPlan.Status.ACTIVE
                    || upstreamPlan.mode() != RefreshPlan.Mode.FULL
                    || upstreamPlan.cron() == null) {
                continue; // a CONTINUOUS upstream is always as fresh as it gets; a stopped one will
                // not refresh
            }
            CronExpression cron = upstreamCrons.computeIfAbsent(upstream, t -> cron(upstreamPlan));
            Instant reported = refreshedUpTo.get(upstream);
            if (cron.isSatisfiedBy(Date.from(boundary))
                    && (reported == null || reported.isBefore(boundary))) {
                pending.add(upstream);
            }
        }
        return pending;
    }

    /** The tables scheduled now. */
    public int size() {
        return entries.size();
    }

    private void unschedule(String table) {
        held.remove(table);
        Entry entry = entries.remove(table);
        if (entry != null) {
            queue.remove(entry);
        }
    }

    /**
     * Where in the catch-up window a table's catch-up goes: the same place for a table every time.
     */
    private Duration spread(String table) {
        long window = Math.max(1, catchUpWindow.toMillis());
        return Duration.ofMillis(Math.floorMod(table.hashCode(), window));
    }

    private CronExpression cron(RefreshPlan plan) {
        try {
            CronExpression cron = new CronExpression(plan.cron());
            cron.setTimeZone(TimeZone.getTimeZone(zoneOf(plan)));
            return cron;
        } catch (ParseException e) {
            throw new IllegalArgumentException(
                    "the plan's cron '"
                            + plan.cron()
                            + "' is not a Quartz expression: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Where the plan's periods begin and end: its own time zone, else (an older plan) the
     * configured one.
     */
    private ZoneId zoneOf(RefreshPlan plan) {
        try {
            return plan.timeZone() == null ? zone : ZoneId.of(plan.timeZone());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "the plan's time zone '"
                            + plan.timeZone()
                            + "' is not one Java knows: "
                            + e.getMessage(),
                    e);
        }
    }

    private static Instant next(Entry entry, Instant after) {
        return entry.cron.getNextValidTimeAfter(Date.from(after)).toInstant();
    }

    /** The latest boundary at or before {@code now} within one period back; null when none. */
    private static Instant latestBoundaryAtOrBefore(Entry entry, Instant now) {
        Duration period = PeriodPartition.length(entry.plan.freshness());
        Instant candidate = next(entry, now.minus(period).minusMillis(1));
        Instant latest = null;
        while (!candidate.isAfter(now)) {
            latest = candidate;
            candidate = next(entry, candidate);
        }
        return latest;
    }
}
