package io.mtables.ddl.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.ddl.domain.LoadEstimate;
import io.mtables.ddl.domain.LongWork;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshRunEstimate;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.SnapshotEstimate;
import io.mtables.ddl.domain.TableFreshness;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.schemas.catalog.TableDefinition;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Each materialized table's measured freshness as Prometheus gauges on {@code /q/metrics}: {@code
 * mt_table_lag_seconds}, {@code mt_table_freshness_target_seconds}, {@code
 * mt_table_data_timestamp_seconds}, {@code mt_table_load_progress_ratio}, {@code
 * mt_table_load_time_left_seconds}, {@code mt_table_rebuild_progress_ratio}, {@code
 * mt_table_rebuild_time_left_seconds}, {@code mt_table_refresh_progress_ratio}, {@code
 * mt_table_refresh_time_left_seconds}, {@code mt_table_snapshot_progress_ratio}, {@code
 * mt_table_snapshot_time_left_seconds}, {@code mt_table_suspended} and {@code
 * mt_table_suspended_after_failures}, tagged {@code table}. The values are measured when scraped;
 * the set of tables follows the catalog, looked at every few seconds.
 */
@ApplicationScoped
public class TableFreshnessMetrics {

    private static final Logger LOG = Logger.getLogger(TableFreshnessMetrics.class);
    private static final long SYNC_SECONDS = 5;

    private final MeterRegistry registry;
    private final DdlRuntime runtime;
    private final RefreshStatusProjection statuses;
    private final LongWork longWork;
    private final PlanProjection plans;
    private final Clock clock;
    private final Map<String, List<Meter>> meters = new HashMap<>();
    private final ScheduledExecutorService sync =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread thread = new Thread(r, "table-freshness-metrics");
                        thread.setDaemon(true);
                        return thread;
                    });

    public TableFreshnessMetrics(
            MeterRegistry registry,
            DdlRuntime runtime,
            RefreshStatusProjection statuses,
            PlanProjection plans,
            CaptureSnapshotProjection captures,
            Clock clock) {
        this.registry = registry;
        this.runtime = runtime;
        this.statuses = statuses;
        this.longWork =
                new LongWork(
                        statuses,
                        captures,
                        name -> runtime.catalog().flatMap(catalog -> catalog.find(name)));
        this.plans = plans;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent start) {
        sync.scheduleWithFixedDelay(this::syncTables, 0, SYNC_SECONDS, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent stop) {
        sync.shutdownNow();
    }

    /** Registers the gauges of new tables and removes those of dropped ones. */
    void syncTables() {
        try {
            var catalog = runtime.catalog();
            if (catalog.isEmpty()) {
                return; // read back in the background; the next look registers its tables
            }
            Set<String> tables =
                    catalog.get().tables(TableDefinition.Kind.MATERIALIZED_TABLE).stream()
                            .map(TableDefinition::table)
                            .collect(Collectors.toSet());
            meters.keySet()
                    .removeIf(
                            table -> {
                                if (tables.contains(table)) {
                                    return false;
                                }
                                meters.get(table).forEach(registry::remove);
                                // Counted by the freshness watch as it writes a miss.
                                registry.find("mt.freshness.misses")
                                        .tag("table", table)
                                        .meters()
                                        .forEach(registry::remove);
                                return true;
                            });
            for (String table : tables) {
                meters.computeIfAbsent(table, this::register);
            }
        } catch (RuntimeException e) {
            // Retried at the next look; the gauges already registered keep answering meanwhile.
            LOG.warnf(
                    e,
                    "cannot bring the table freshness gauges up to date; trying again in %d s",
                    SYNC_SECONDS);
        }
    }

    /** A gauge of a share done, 0 to 1, from a percentage; NaN while there is none. */
    private Meter ratio(
            String table, String name, Supplier<Optional<Double>> percent, String description) {
        return Gauge.builder(name, () -> percent.get().map(p -> p / 100).orElse(Double.NaN))
                .tag("table", table)
                .description(description)
                .strongReference(true)
                .register(registry);
    }

    /** A gauge of a time left in seconds; NaN while there is none. */
    private Meter seconds(
            String table, String name, Supplier<Optional<Duration>> left, String description) {
        return Gauge.builder(
                        name, () -> left.get().map(l -> l.toMillis() / 1000.0).orElse(Double.NaN))
                .tag("table", table)
                .baseUnit("seconds")
                .description(description)
                .strongReference(true)
                .register(registry);
    }

    private List<Meter> register(String table) {
        return List.of(
                Gauge.builder(
                                "mt.table.lag",
                                () ->
                                        measure(table)
                                                .map(m -> m.lag().toMillis() / 1000.0)
                                                .orElse(Double.NaN))
                        .tag("table", table)
                        .baseUnit("seconds")
                        .description(
                                "How far the table's data is behind its root sources: now minus its"
                                        + " data timestamp")
                        .strongReference(true)
                        .register(registry),
                Gauge.builder(
                                "mt.table.data.timestamp",
                                () ->
                                        measure(table)
                                                .map(m -> m.dataTimestamp().toEpochMilli() / 1000.0)
                                                .orElse(Double.NaN))
                        .tag("table", table)
                        .baseUnit("seconds")
                        .description(
                                "The table holds every change of its root sources up to this time"
                                        + " (epoch seconds)")
                        .strongReference(true)
                        .register(registry),
                Gauge.builder("mt.table.freshness.target", () -> targetSeconds(table))
                        .tag("table", table)
                        .baseUnit("seconds")
                        .description(
                                "The freshness the table promises (declared, or its mode's"
                                        + " default)")
                        .strongReference(true)
                        .register(registry),
                Gauge.builder(
                                "mt.table.load.progress.ratio",
                                () ->
                                        statuses.loadEstimate(table)
                                                .map(load -> load.percent() / 100)
                                                .orElse(Double.NaN))
                        .tag("table", table)
                        .description(
                                "How far the table's streaming job is through its sources (1 once"
                                        + " caught up); NaN before its first report")
                        .strongReference(true)
                        .register(registry),
                Gauge.builder(
                                "mt.table.load.time.left",
                                () ->
                                        statuses.loadEstimate(table)
                                                .flatMap(LoadEstimate::timeLeft)
                                                .map(left -> left.toMillis() / 1000.0)
                                                .orElse(Double.NaN))
                        .tag("table", table)
                        .baseUnit("seconds")
                        .description(
                                "The time the table's streaming job needs to read what its sources"
                                        + " have left, at the rate it has read so far; NaN when"
                                        + " caught up or not yet known")
                        .strongReference(true)
                        .register(registry),
                ratio(
                        table,
                        "mt.table.rebuild.progress.ratio",
                        () -> statuses.rebuildEstimate(table).map(LoadEstimate::percent),
                        "How far the staged job of the table's switch-over or rebuild is through"
                                + " its sources (1 once caught up); NaN when none is under way"),
                seconds(
                        table,
                        "mt.table.rebuild.time.left",
                        () -> statuses.rebuildEstimate(table).flatMap(LoadEstimate::timeLeft),
                        "The time the staged job of the table's switch-over or rebuild needs to"
                                + " read what its sources have left; NaN when none is under way,"
                                + " caught up or not yet known"),
                ratio(
                        table,
                        "mt.table.refresh.progress.ratio",
                        () -> statuses.refreshEstimate(table).flatMap(RefreshRunEstimate::percent),
                        "How far the table's running FULL refresh is through what its sources"
                                + " read; NaN when none runs or what it reads in all is not known"),
                seconds(
                        table,
                        "mt.table.refresh.time.left",
                        () -> statuses.refreshEstimate(table).flatMap(RefreshRunEstimate::timeLeft),
                        "The time the table's running FULL refresh needs to read what its"
                                + " sources have left, at the rate it has read so far; NaN when"
                                + " none runs or not known"),
                ratio(
                        table,
                        "mt.table.snapshot.progress.ratio",
                        () -> sourceSnapshot(table).flatMap(SnapshotEstimate::percent),
                        "How far the capture's snapshot that holds back the rows of the table's"
                                + " sources is (rows read of PostgreSQL's estimate); NaN when"
                                + " none is under way or there is no estimate"),
                seconds(
                        table,
                        "mt.table.snapshot.time.left",
                        () -> sourceSnapshot(table).flatMap(SnapshotEstimate::timeLeft),
                        "The time the capture's snapshot of the table's sources needs for the"
                                + " rest of PostgreSQL's estimate, at its rate so far; NaN when"
                                + " none is under way or not known"),
                Gauge.builder(
                                "mt.table.suspended.after.failures",
                                () -> statuses.suspendedAfterFailures(table) ? 1 : 0)
                        .tag("table", table)
                        .description(
                                "1 while the job manager has the table SUSPENDED after repeated"
                                        + " failures, else 0")
                        .strongReference(true)
                        .register(registry),
                Gauge.builder("mt.table.suspended", () -> suspended(table))
                        .tag("table", table)
                        .description(
                                "1 while the table is SUSPENDED (by a statement or after"
                                        + " failures), else 0")
                        .strongReference(true)
                        .register(registry));
    }

    private double suspended(String table) {
        return statuses.find(table).filter(s -> s.status().equals("SUSPENDED")).isPresent() ? 1 : 0;
    }

    /** The capture's snapshot that holds back rows of the table's sources, if one is under way. */
    private Optional<SnapshotEstimate> sourceSnapshot(String table) {
        return runtime.catalog()
                .flatMap(catalog -> catalog.find(table))
                .flatMap(longWork::sourceSnapshot);
    }

    /** Measured against the catalog as it is now (it is replaced when read back). */
    private Optional<TableFreshness.Measured> measure(String table) {
        return runtime.catalog()
                .flatMap(
                        catalog ->
                                new TableFreshness(catalog, statuses, plans)
                                        .measure(table, clock.instant()));
    }

    private double targetSeconds(String table) {
        return runtime.catalog()
                .flatMap(
                        catalog ->
                                catalog.find(table)
                                        .flatMap(
                                                definition ->
                                                        new TableFreshness(catalog, statuses, plans)
                                                                .target(definition)))
                .map(target -> (double) target.toSeconds())
                .orElse(Double.NaN);
    }
}
