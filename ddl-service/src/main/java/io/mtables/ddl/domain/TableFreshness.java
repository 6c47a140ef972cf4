package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * How fresh a materialized table is, measured: the time up to which it holds every change of its
 * root sources, and the lag behind now.
 *
 * <p>A table's own data timestamp comes from the job manager's RefreshSucceeded events (a FULL
 * refresh: the time it was scheduled for; a CONTINUOUS job: the trigger time of the checkpoint that
 * committed it, or that found nothing to commit). A table over other materialized tables cannot be
 * fresher than they are now, so its data timestamp is the oldest along every path to the root
 * sources.
 */
public final class TableFreshness {

    /** Deeper than any real chain: a guard, the catalog refuses cycles. */
    private static final int MAX_DEPTH = 64;

    private final Catalog catalog;
    private final RefreshStatusProjection statuses;
    private final PlanProjection plans;

    public TableFreshness(Catalog catalog, RefreshStatusProjection statuses, PlanProjection plans) {
        this.catalog = catalog;
        this.statuses = statuses;
        this.plans = plans;
    }

    /**
     * The freshness the table promises: its current plan's (declared, or the mode's default), else
     * the declared one.
     */
    public Optional<Duration> target(TableDefinition table) {
        var planned =
                plans.find(table.table())
                        .filter(
                                p ->
                                        p.definitionVersion() == table.version()
                                                && p.freshness() != null)
                        .map(p -> p.freshness());
        if (planned.isPresent()) {
            return planned.map(f -> duration(f.interval(), f.unit()));
        }
        return Optional.ofNullable(table.freshness()).map(f -> duration(f.interval(), f.unit()));
    }

    private static Duration duration(int interval, String unit) {
        return Duration.of(interval, ChronoUnit.valueOf(unit + "S"));
    }

    /**
     * A table's measured freshness.
     *
     * @param dataTimestamp every change of the root sources up to this time is in the table
     * @param lag now minus that, never negative
     */
    public record Measured(Instant dataTimestamp, Duration lag) {

        /** Whether the lag is within the declared freshness. */
        public boolean within(Duration freshness) {
            return lag.compareTo(freshness) <= 0;
        }
    }

    /**
     * The table's freshness at {@code now}; empty until it and every table upstream were refreshed
     * once.
     */
    public Optional<Measured> measure(String table, Instant now) {
        return dataTimestamp(table, 0)
                .map(
                        timestamp ->
                                new Measured(
                                        timestamp,
                                        now.isAfter(timestamp)
                                                ? Duration.between(timestamp, now)
                                                : Duration.ZERO));
    }

    private Optional<Instant> dataTimestamp(String table, int depth) {
        Optional<Instant> own =
                statuses.find(table).map(RefreshStatusProjection.RefreshStatus::dataTimestamp);
        if (own.isEmpty() || depth > MAX_DEPTH) {
            return Optional
                    .empty(); // not refreshed yet (or a cycle, which the catalog refuses anyway)
        }
        Instant oldest = own.get();
        TableDefinition definition = catalog.find(table).orElse(null);
        if (definition == null) {
            return own;
        }
        for (var source : definition.sources()) {
            if (source.kind() != TableDefinition.Kind.MATERIALIZED_TABLE) {
                continue;
            }
            Optional<Instant> upstream = dataTimestamp(source.table(), depth + 1);
            if (upstream.isEmpty()) {
                return Optional.empty();
            }
            if (upstream.get().isBefore(oldest)) {
                oldest = upstream.get();
            }
        }
        return Optional.of(oldest);
    }
}
