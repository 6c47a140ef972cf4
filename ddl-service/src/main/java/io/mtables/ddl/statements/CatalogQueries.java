package io.mtables.ddl.statements;

import io.mtables.ddl.audit.AuditTable;
import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.LoadEstimate;
import io.mtables.ddl.domain.LongWork;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshRunEstimate;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.SnapshotEstimate;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.domain.TableFreshness;
import io.mtables.ddl.history.RefreshHistoryTable;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.InformationSchema;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Kind;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.flink.sql.parser.dql.SqlRichDescribeTable;
import org.apache.flink.sql.parser.dql.SqlShowTables;

/** SHOW TABLES, SHOW MATERIALIZED TABLES and DESCRIBE: answers read from the catalog. */
final class CatalogQueries {

    private static final ResultColumn NAME = new ResultColumn("table_name", "STRING");

    private final FlinkSql flink;
    private final Catalog catalog;
    private final PlanProjection plans;
    private final RefreshStatusProjection statuses;
    private final TableFreshness freshness;
    private final WarehouseReader warehouse;
    private final LongWork longWork;

    CatalogQueries(
            FlinkSql flink,
            Catalog catalog,
            PlanProjection plans,
            RefreshStatusProjection statuses,
            WarehouseReader warehouse,
            CaptureSnapshotProjection captures) {
        this.longWork = new LongWork(statuses, captures, catalog::find);
        this.statuses = statuses;
        this.warehouse = warehouse;
        this.freshness = new TableFreshness(catalog, statuses, plans);
        this.flink = flink;
        this.catalog = catalog;
        this.plans = plans;
    }

    /** SHOW [MATERIALIZED] TABLES: those the caller may see ({@code visible}). */
    Outcome show(SqlShowTables show, Predicate<TableDefinition> visible) {
        boolean materialized = show.getTableKind() == SqlShowTables.SqlTableKind.MATERIALIZED_TABLE;
        if (show.getTableKind() == SqlShowTables.SqlTableKind.VIEW) {
            throw StatementException.invalidAt(
                    "UnsupportedStatement",
                    "Views are not supported.",
                    FlinkSql.positionOf(show),
                    "SHOW TABLES, SHOW MATERIALIZED TABLES");
        }
        List<TableDefinition> tables = new ArrayList<>(catalog.tables(Kind.MATERIALIZED_TABLE));
        if (!materialized) {
            tables.addAll(0, catalog.tables(Kind.SOURCE_TABLE));
            tables.sort(Comparator.comparing(TableDefinition::table));
        }
        List<String> database = show.getSqlIdentifierNameList();
        Pattern like =
                show.isWithLike()
                        ? likePattern(
                                show.getLikeSqlPattern(),
                                "ILIKE".equalsIgnoreCase(show.getLikeType()))
                        : null;
        List<List<Object>> rows = new ArrayList<>();
        for (TableDefinition table : tables) {
            if (!visible.test(table)) {
                continue;
            }
            TableId id = TableId.of(table.table());
            if (!database.isEmpty()
                    && !String.join(".", database)
                            .equals(
                                    database.size() == 1
                                            ? id.database()
                                            : id.catalog() + "." + id.database())) {
                continue;
            }
            if (like != null && like.matcher(id.name()).matches() == show.isNotLike()) {
                continue;
            }
            rows.add(
                    materialized
                            ? materializedRow(table)
                            : List.of(table.table(), table.kind().name()));
        }
        List<ResultColumn> columns =
                materialized
                        ? List.of(
                                NAME,
                                new ResultColumn("refresh_mode", "STRING"),
                                new ResultColumn("freshness", "STRING"),
                                new ResultColumn("status", "STRING"))
                        : List.of(NAME, new ResultColumn("kind", "STRING"));
        return new Outcome.Rows(columns, rows);
    }

    /** DESCRIBE, of a table the caller may read ({@code checkRead} refuses the others). */
    Outcome describe(
            SqlRichDescribeTable describe,
            boolean materialized,
            Consumer<TableDefinition> checkRead,
            Predicate<TableDefinition> visible) {
        String table =
                Identifiers.qualify(
                        describe.fullTableName(),
                        flink,
                        (SqlIdentifier) describe.getOperandList().get(0));
        TableDefinition definition =
                catalog.find(table)
                        .orElseThrow(
                                () ->
                                        StatementException.notFound(
                                                (materialized ? "Materialized table " : "Table ")
                                                        + table
                                                        + " does not exist."));
        checkRead.accept(definition);
        if (materialized && definition.kind() != Kind.MATERIALIZED_TABLE) {
            throw StatementException.invalid(
                    "WrongTableKind",
                    table + " is a source table, not a materialized table.",
                    "DESCRIBE " + table);
        }
        if (!materialized) {
            List<List<Object>> rows = new ArrayList<>();
            for (var column : definition.columns()) {
                rows.add(
                        List.of(
                                column.name(),
                                column.type(),
                                column.nullable(),
                                definition.primaryKey().contains(column.name())));
            }
            return new Outcome.Rows(
                    List.of(
                            new ResultColumn("name", "STRING"),
                            new ResultColumn("type", "STRING"),
                            new ResultColumn("null", "BOOLEAN"),
                            new ResultColumn("key", "BOOLEAN")),
                    rows);
        }
        List<List<Object>> rows = new ArrayList<>();
        property(rows, "table_name", definition.table());
        property(rows, "version", definition.version());
        property(rows, "owner", definition.owner());
        property(rows, "status", definition.status());
        property(rows, "refresh_mode", definition.refreshMode());
        property(rows, "freshness", freshness(definition));
        for (var column : definition.columns()) {
            property(
                    rows,
                    "column." + column.name(),
                    column.type() + (column.nullable() ? "" : " NOT NULL"));
        }
        property(rows, "primary_key", definition.primaryKey());
        property(rows, "partitioned_by", definition.partitionKeys());
        property(
                rows,
                "distribution",
                definition.distribution() == null
                        ? null
                        : CanonicalDistribution.text(definition.distribution()));
        property(rows, "options", definition.options());
        property(rows, "comment", definition.comment());
        property(rows, "query", definition.query().original());
        property(rows, "expanded_query", definition.query().expanded());
        property(
                rows,
                "sources",
                definition.sources().stream()
                        .map(s -> s.table() + " (" + s.kind() + " v" + s.version() + ")")
                        .toList());
        property(rows, "read_by", visibleOnly(catalog.readersOf(table), visible));
        property(rows, "created_at", definition.createdAt());
        property(rows, "updated_at", definition.updatedAt());
        var change = definition.queryChange();
        if (change != null) {
            property(rows, "last_change.from_version", change.fromVersion());
            property(rows, "last_change.verdict", change.verdict());
            property(rows, "last_change.reason", change.reason());
            property(rows, "last_change.action", change.action());
            if (change.bridge() != null) {
                property(rows, "last_change.bridge", QueryChanges.bridgeWords(change.bridge()));
            }
            property(rows, "last_change.done", statuses.switchOver(table).orElse(null));
        }
        var plan = plans.find(table).filter(p -> p.definitionVersion() == definition.version());
        if (plan.isEmpty()) {
            property(
                    rows,
                    "plan",
                    "not yet planned for version " + definition.version() + " (planner-service)");
        }
        plan.ifPresent(p -> PlanRows.append(rows, p));
        var refresh = statuses.find(table);
        property(rows, "refresh.status", refreshStatus(definition));
        property(rows, "refresh.queued_reason", refresh.map(s -> s.queuedReason()).orElse(null));
        property(
                rows,
                "refresh.initial_load",
                statuses.loadEstimate(table).map(LoadEstimate::inWords).orElse(null));
        property(
                rows,
                "refresh.running",
                statuses.refreshEstimate(table).map(RefreshRunEstimate::inWords).orElse(null));
        property(
                rows,
                "refresh.source_snapshot",
                longWork.sourceSnapshot(definition).map(SnapshotEstimate::inWords).orElse(null));
        property(rows, "refresh.rebuild", statuses.rebuild(table).orElse(null));
        property(rows, "refresh.job_id", refresh.map(s -> s.jobId()).orElse(null));
        property(
                rows,
                "refresh.job_running_time",
                refresh.map(s -> s.jobStartedAt())
                        .map(started -> Duration.between(started, Instant.now()).withNanos(0))
                        .orElse(null));
        property(rows, "refresh.last_refresh", refresh.map(s -> s.lastRefresh()).orElse(null));
        property(
                rows,
                "refresh.last_snapshot_id",
                refresh.map(s -> s.lastSnapshotId()).orElse(null));
        property(rows, "refresh.last_error", refresh.map(s -> s.lastError()).orElse(null));
        var measured = freshness.measure(table, Instant.now());
        property(
                rows,
                "refresh.data_timestamp",
                measured.map(TableFreshness.Measured::dataTimestamp).orElse(null));
        property(
                rows,
                "refresh.measured_lag",
                measured.map(m -> m.lag().truncatedTo(ChronoUnit.MILLIS)).orElse(null));
        property(
                rows,
                "refresh.freshness_met",
                measured.flatMap(m -> freshness.target(definition).map(m::within)).orElse(null));
        property(rows, "refresh.next_refresh", nextRefresh(definition).orElse(null));
        return new Outcome.Rows(PlanRows.COLUMNS, rows);
    }

    /**
     * A query over information_schema ({@code materialized_tables}, {@code table_dependencies},
     * {@code refresh_history}, {@code audit}), answered with what the caller may see: the tables of
     * {@code visible}, and the audit records of the senders {@code auditReadable} accepts. It is
     * parsed and run by Calcite rather than Flink: Flink's grammar reserves words that are column
     * names here (refresh_mode).
     */
    Outcome informationSchema(
            String query, Predicate<TableDefinition> visible, Predicate<String> auditReadable) {
        List<TableDefinition> seen =
                catalog.tables(Kind.MATERIALIZED_TABLE).stream().filter(visible).toList();
        List<Object[]> rows = new ArrayList<>();
        for (TableDefinition table : seen) {
            // The planned mode once planner-service has planned this version, else the declared
            // one.
            String mode =
                    plans.find(table.table())
                            .filter(
                                    p ->
                                            p.definitionVersion() == table.version()
                                                    && p.mode() != null)
                            .map(p -> p.mode().name())
                            .orElse(table.refreshMode().name());
            var refresh = statuses.find(table.table());
            var measured = freshness.measure(table.table(), Instant.now());
            Object[] identity = {
                table.table(),
                mode,
                freshness(table),
                refreshStatus(table),
                table.version(),
                refresh.map(s -> s.lastRefresh()).map(Instant::toEpochMilli).orElse(null),
                nextRefresh(table).map(Instant::toEpochMilli).orElse(null),
                refresh.map(s -> s.jobId()).orElse(null),
                refresh.map(s -> s.jobStartedAt())
                        .map(started -> Duration.between(started, Instant.now()).toMillis())
                        .orElse(null),
                measured.map(m -> m.lag().toMillis()).orElse(null),
                measured.map(m -> m.dataTimestamp().toEpochMilli()).orElse(null)
            };
            Object[] progress = longWork.columns(table);
            Object[] row = Arrays.copyOf(identity, identity.length + progress.length);
            System.arraycopy(progress, 0, row, identity.length, progress.length);
            rows.add(row);
        }
        List<Object[]> dependencies = new ArrayList<>();
        for (TableDefinition table : seen) {
            for (var source : table.sources()) {
                dependencies.add(
                        new Object[] {
                            table.table(), source.table(), source.kind().name(), source.version()
                        });
            }
        }
        var answer =
                InformationSchema.query(
                        query,
                        rows,
                        dependencies,
                        table -> visibleHistory(table, seen),
                        principal ->
                                AuditTable.read(warehouse.location(), principal, auditReadable));
        return new Outcome.Rows(answer.columns(), answer.rows());
    }

    /** The tables of {@code names} the caller may see. */
    List<String> visibleOnly(List<String> names, Predicate<TableDefinition> visible) {
        return names.stream()
                .filter(name -> catalog.find(name).filter(visible).isPresent())
                .toList();
    }

    /** The refresh history of the tables the caller sees (its first column is the table). */
    private List<Object[]> visibleHistory(Optional<String> table, List<TableDefinition> seen) {
        Set<String> names = seen.stream().map(TableDefinition::table).collect(Collectors.toSet());
        if (table.isPresent() && !names.contains(table.get())) {
            return List.of();
        }
        return RefreshHistoryTable.read(warehouse.location(), table).stream()
                .filter(row -> names.contains((String) row[0]))
                .toList();
    }

    /**
     * The next period boundary of the current version's FULL plan, unless the table is suspended.
     */
    private Optional<Instant> nextRefresh(TableDefinition table) {
        if (refreshStatus(table).equals("SUSPENDED")) {
            return Optional.empty();
        }
        return plans.find(table.table())
                .filter(p -> p.definitionVersion() == table.version())
                .flatMap(p -> NextRefresh.after(p, Instant.now()));
    }

    /**
     * INITIALIZING, ACTIVATED, SUSPENDED or FAILED: a suspended definition is SUSPENDED at once,
     * unless the job manager reported a failure at its version without suspending (a savepoint
     * refused: the job still runs, and SUSPEND is tried again); else what the job manager last
     * reported (INITIALIZING until it did).
     */
    private String refreshStatus(TableDefinition table) {
        var reported = statuses.find(table.table());
        if (table.status() == TableDefinition.Status.SUSPENDED) {
            boolean suspensionFailed =
                    reported.filter(
                                    s ->
                                            s.status().equals("FAILED")
                                                    && s.definitionVersion() == table.version()
                                                    && s.suspendedVersion() < table.version())
                            .isPresent();
            return suspensionFailed ? "FAILED" : "SUSPENDED";
        }
        return reported.map(s -> s.status()).orElse("INITIALIZING");
    }

    private static List<Object> materializedRow(TableDefinition table) {
        return List.of(
                table.table(), table.refreshMode().name(), freshness(table), table.status().name());
    }

    private static String freshness(TableDefinition table) {
        return table.freshness() == null
                ? "default of the mode"
                : "INTERVAL '" + table.freshness().interval() + "' " + table.freshness().unit();
    }

    private static void property(List<List<Object>> rows, String name, Object value) {
        rows.add(Arrays.asList(name, value == null ? null : String.valueOf(value)));
    }

    /** SQL LIKE: % any run, _ one character, everything else literal. */
    static Pattern likePattern(String like, boolean ignoreCase) {
        StringBuilder regex = new StringBuilder();
        for (char c : like.toCharArray()) {
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(
                regex.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    }

    /** DISTRIBUTED BY as written. */
    private static final class CanonicalDistribution {
        static String text(TableDefinition.Distribution d) {
            return (d.kind() == null ? "" : d.kind())
                    + d.keys()
                    + (d.buckets() == null ? "" : " INTO " + d.buckets() + " BUCKETS");
        }
    }
}
