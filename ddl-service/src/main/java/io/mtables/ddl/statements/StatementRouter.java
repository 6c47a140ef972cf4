package io.mtables.ddl.statements;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.AccessStatementParser;
import io.mtables.ddl.access.Privilege;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.domain.SourceOptions;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.InformationSchema;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.ddl.infra.SourceHistory;
import io.mtables.ddl.pgcatalog.PgCatalog;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.catalog.TableDefinition.QueryChange;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableRefresh;
import org.apache.flink.sql.parser.ddl.SqlCreateMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlDropMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlDropTable;
import org.apache.flink.sql.parser.dql.SqlRichDescribeTable;
import org.apache.flink.sql.parser.dql.SqlRichExplain;
import org.apache.flink.sql.parser.dql.SqlShowTables;

/**
 * Sends each parsed statement to the class that handles its kind; refuses the rest, saying what is
 * allowed.
 */
public class StatementRouter {

    private static final Pattern TEMPORARY =
            Pattern.compile("(?is)^\\s*CREATE\\s+(OR\\s+REPLACE\\s+)?TEMPORARY\\b");

    private final FlinkSql flink;
    private final SourceTableStatements sourceTables;
    private final MaterializedTableStatements materializedTables;
    private final CatalogQueries queries;
    private final PlanPreview preview;
    private final PlanProjection plans;
    private final TableReads reads;
    private final PgCatalogQueries pgCatalog;
    private final Catalog catalog;
    private final AccessControl access;
    private final AccessStatements accessStatements;
    private final SourceHistory sourceHistory;

    private Consumer<Duration> authorizationTimes = spent -> {};

    public StatementRouter(
            FlinkSql flink,
            Catalog catalog,
            ReadModels models,
            PlanPreview preview,
            SourceOptions sourceOptions,
            SourceHistory sourceHistory,
            AccessControl access) {
        PlanProjection plans = models.plans();
        RefreshStatusProjection statuses = models.statuses();
        this.preview = preview;
        this.sourceHistory = sourceHistory;
        this.access = access;
        this.accessStatements = new AccessStatements(access, catalog, flink);
        this.plans = plans;
        this.catalog = catalog;
        this.reads = new TableReads(flink, catalog, models.warehouse());
        this.pgCatalog =
                new PgCatalogQueries(
                        catalog, models.warehouse().limits().maxRows(), models.queries().timeout());
        this.flink = flink;
        this.sourceTables = new SourceTableStatements(flink, catalog, sourceOptions);
        this.materializedTables =
                new MaterializedTableStatements(
                        flink,
                        catalog,
                        table ->
                                statuses.find(table)
                                        .map(s -> s.status().equals("SUSPENDED"))
                                        .orElse(false),
                        definition ->
                                plans.find(definition.table())
                                        .filter(p -> p.definitionVersion() == definition.version())
                                        .map(p -> p.mode() == RefreshPlan.Mode.CONTINUOUS)
                                        .orElse(false));
        this.queries =
                new CatalogQueries(
                        flink, catalog, plans, statuses, models.warehouse(), models.captures());
    }

    /**
     * What {@code statement} comes to, if {@code principal} may do it; nothing is changed yet.
     * Reads are checked before anything is read, changes once the statement says what they are.
     */
    public Outcome route(String statement, String requestId, Instant now, String principal) {
        if (AccessStatementParser.isAccessStatement(statement)) {
            return accessStatements.execute(statement, principal, requestId, now);
        }
        Authorization caller = new Authorization(access, catalog, principal);
        try {
            return caller.checkAndOwn(routeFor(caller, statement, requestId, now));
        } finally {
            authorizationTimes.accept(caller.spent());
        }
    }

    /** Told what each statement's privilege checks cost (AccessMetrics). */
    void onAuthorized(Consumer<Duration> times) {
        this.authorizationTimes = times;
    }

    private Outcome routeFor(
            Authorization caller, String statement, String requestId, Instant now) {
        if (PgCatalog.isQueryOver(statement)) {
            return pgCatalog.query(statement, caller::sees);
        }
        if (InformationSchema.isQueryOver(statement)) {
            return queries.informationSchema(statement, caller::sees, caller::readsAuditOf);
        }
        ParsedStatement parsed = flink.parse(statement);
        SqlNode node = parsed.node();
        precheck(caller, node);
        if (parsed.explain()) {
            return explain(parsed, requestId, now, caller);
        }
        if (node instanceof SqlCreateMaterializedTable) {
            return refusedAtOnce(materializedTables.create(parsed, requestId, now));
        }
        if (node instanceof SqlAlterMaterializedTableRefresh refresh) {
            return materializedTables.refresh(refresh, requestId, now);
        }
        if (node instanceof SqlAlterMaterializedTable alter) {
            return refusedAtOnce(materializedTables.alter(parsed, alter, requestId, now));
        }
        if (node instanceof SqlDropMaterializedTable drop) {
            return materializedTables.drop(drop, requestId, now);
        }
        if (node instanceof SqlCreateTable create) {
            return sourceTables.create(parsed, create, requestId, now);
        }
        if (node instanceof SqlDropTable drop) {
            return sourceTables.drop(drop, requestId, now);
        }
        if (node instanceof SqlShowTables show) {
            return queries.show(show, caller::sees);
        }
        if (node instanceof SqlRichDescribeTable describe) {
            return queries.describe(
                    describe, parsed.describeMaterialized(), caller::checkRead, caller::sees);
        }
        if (node.getKind().belongsTo(SqlKind.QUERY)) {
            return reads.select(parsed, caller::checkRead);
        }
        if (TEMPORARY.matcher(parsed.text()).find()) {
            Statements.refuseTemporary(true, "object", node);
        }
        if (node instanceof SqlRichExplain) {
            throw explainRefused(node);
        }
        throw StatementException.invalidAt(
                "UnsupportedStatement",
                "Statement " + node.getKind() + " is not part of the dialect.",
                FlinkSql.positionOf(node),
                Statements.ALLOWED);
    }

    /** The privilege a change needs on the table it names, before it is compiled or planned. */
    private void precheck(Authorization caller, SqlNode node) {
        if (node instanceof SqlCreateMaterializedTable create) {
            caller.precheck(
                    Identifiers.qualify(create.fullTableName(), flink, create.getTableName()),
                    Privilege.ALTER,
                    true);
        } else if (node instanceof SqlAlterMaterializedTable alter) {
            caller.precheck(
                    Identifiers.qualify(alter.fullTableName(), flink, alter.getTableName()),
                    Privilege.ALTER,
                    false);
        } else if (node instanceof SqlDropMaterializedTable drop) {
            caller.precheck(
                    Identifiers.qualify(
                            drop.fullTableName(),
                            flink,
                            (SqlIdentifier) drop.getOperandList().get(0)),
                    Privilege.DROP,
                    false);
        } else if (node instanceof SqlCreateTable create) {
            caller.precheck(
                    Identifiers.qualify(create.fullTableName(), flink, create.getTableName()),
                    Privilege.CREATE,
                    true);
        } else if (node instanceof SqlDropTable drop) {
            caller.precheck(
                    Identifiers.qualify(drop.fullTableName(), flink, drop.getTableName()),
                    Privilege.DROP,
                    false);
        }
    }

    /**
     * A definition planner-service would refuse is refused here, before anything is written: a
     * table is never accepted only to be refused (or suspended by its first row) later. A suspended
     * table runs nothing, so it is planned when it is resumed. An accepted change of the query says
     * what it does to the running job's state.
     */
    private Outcome refusedAtOnce(Outcome outcome) {
        if (!(outcome instanceof Outcome.Defined accepted)) {
            return outcome;
        }
        Outcome.Defined defined = accepted;
        RefreshPlan plan = null;
        if (defined.definition().status() == TableDefinition.Status.ACTIVE) {
            PlanPreview.Preview planned = preview.preview(defined.definition());
            if (planned.refusedForGood()) {
                throw StatementException.invalid(
                        "PlanRefused",
                        "Materialized table "
                                + defined.definition().table()
                                + " cannot be kept fresh as declared; nothing was changed. "
                                + String.join(" ", planned.plan().reasons()),
                        "a query and refresh mode Flink can run: see EXPLAIN CREATE MATERIALIZED"
                                + " TABLE ... for the plan and docs/planner.md");
            }
            plan = planned.plan();
            // Handed on, so planner-service need not ask Flink the same again (docs/planner.md).
            defined =
                    planned.handedOn()
                            .map(
                                    previewed ->
                                            new Outcome.Defined(
                                                    accepted.definition()
                                                            .withPreviewedPlan(previewed),
                                                    accepted.message(),
                                                    accepted.onCommitted()))
                            .orElse(accepted);
        }
        return withQueryChange(defined, plan);
    }

    /**
     * A new version of an existing table with its latest change of the query on record: this one's
     * (and said in the answer) when it changes the query, else the running version's.
     */
    private Outcome.Defined withQueryChange(Outcome.Defined defined, RefreshPlan plan) {
        TableDefinition changed = defined.definition();
        var existing = materializedTables.find(changed.table());
        if (existing.isEmpty()
                || existing.get().kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                || changed.kind() != TableDefinition.Kind.MATERIALIZED_TABLE) {
            return defined; // created, maybe again after a DROP (its versions go on)
        }
        TableDefinition running = existing.get();
        var runningPlan =
                plans.find(running.table()).filter(p -> p.definitionVersion() == running.version());
        var change = QueryChanges.of(running, runningPlan, changed, plan, preview);
        if (change.isPresent() && (plan == null || plan.mode() == RefreshPlan.Mode.CONTINUOUS)) {
            change = Optional.of(bridgedOrRefused(running, changed, plan, change.get()));
        }
        return change.map(
                        c ->
                                new Outcome.Defined(
                                        changed.withQueryChange(c),
                                        defined.message() + " " + QueryChanges.sentence(c),
                                        defined.onCommitted()))
                .orElseGet(
                        () ->
                                new Outcome.Defined(
                                        changed.withQueryChange(running.queryChange()),
                                        defined.message(),
                                        defined.onCommitted()));
    }

    /**
     * A new query of a CONTINUOUS table is switched to by reading its sources again from their
     * start (now, or at RESUME): where they no longer hold every change, the change is bridged (a
     * window table: the old query's rows up to a cut-over, {@link HistoryBridges}) or else refused,
     * and nothing changes.
     */
    private QueryChange bridgedOrRefused(
            TableDefinition running,
            TableDefinition changed,
            RefreshPlan plan,
            QueryChange change) {
        Optional<String> gap = sourceHistory.gap(changed, catalog::find);
        if (gap.isEmpty()) {
            return change;
        }
        HistoryBridges.Result bridge =
                plan == null
                        ? HistoryBridges.Result.none(
                                "the table is suspended: its switch-over, at RESUME, cannot cut"
                                        + " the old rows by a window the old job closed")
                        : HistoryBridges.of(running, changed, plan, preview, gap.get());
        if (bridge.bridge().isPresent()) {
            HistoryBridge chosen = bridge.bridge().get();
            return new QueryChange(
                    change.fromVersion(),
                    change.verdict(),
                    change.reason(),
                    change.action() + String.format(HistoryBridges.ACTION, chosen.column()),
                    change.writtenRows(),
                    chosen);
        }
        throw StatementException.invalid(
                "SourceHistoryIncomplete",
                "The new query of "
                        + changed.table()
                        + " would be built by reading its sources again from their start, and"
                        + " they no longer hold every change: "
                        + gap.get()
                        + "; and "
                        + bridge.whyNot()
                        + ". Nothing was changed.",
                "keep the query; or DROP and CREATE the table, to hold only what its sources hold"
                        + " now; a window table (a window aggregate's window_end in its key) is"
                        + " bridged instead (docs/evolution.md)");
    }

    /**
     * EXPLAIN CREATE [OR ALTER] | ALTER MATERIALIZED TABLE: the statement is checked exactly as if
     * it ran, then planned as planner-service would plan it; a changed query also gets the verdict
     * on its running job's state. Nothing is created or changed.
     */
    private Outcome explain(
            ParsedStatement parsed, String requestId, Instant now, Authorization caller) {
        SqlNode node = parsed.node();
        Outcome wouldBe;
        if (node instanceof SqlCreateMaterializedTable) {
            wouldBe = materializedTables.create(parsed, requestId, now);
        } else if (node instanceof SqlAlterMaterializedTable alter
                && !(node instanceof SqlAlterMaterializedTableRefresh)) {
            wouldBe = materializedTables.alter(parsed, alter, requestId, now);
        } else {
            throw explainRefused(node);
        }
        // What the caller may not do, they may not see planned either.
        if (wouldBe instanceof Outcome.Unchanged unchanged) {
            caller.checkRead(materializedTables.current(unchanged.table()));
        } else {
            caller.checkAndOwn(wouldBe);
        }
        var definition =
                wouldBe instanceof Outcome.Defined defined
                        ? defined.definition()
                        : materializedTables.current(((Outcome.Unchanged) wouldBe).table());
        boolean changes =
                wouldBe instanceof Outcome.Defined
                        && materializedTables.find(definition.table()).isPresent();
        var plan = preview.preview(definition).plan();
        if (changes) {
            // A suspended version is not planned until it is resumed (as in refusedAtOnce).
            definition =
                    withQueryChange(
                                    (Outcome.Defined) wouldBe,
                                    definition.status() == TableDefinition.Status.ACTIVE
                                            ? plan
                                            : null)
                            .definition();
        }
        List<List<Object>> rows = new ArrayList<>();
        rows.add(Arrays.asList("table_name", definition.table()));
        rows.add(Arrays.asList("version", String.valueOf(definition.version())));
        rows.add(
                Arrays.asList(
                        "change",
                        wouldBe instanceof Outcome.Defined
                                ? (changes ? "would alter" : "would create")
                                : "none: already defined this way"));
        PlanRows.append(rows, plan);
        var change = definition.queryChange();
        if (changes && change != null && change.fromVersion() == definition.version() - 1) {
            QueryChanges.appendEvolution(rows, change);
            if (plan != null && plan.mode() == RefreshPlan.Mode.CONTINUOUS) {
                Map<String, RefreshPlan.Mode> readers = new LinkedHashMap<>();
                for (String reader :
                        queries.visibleOnly(catalog.readersOf(definition.table()), caller::sees)) {
                    readers.put(reader, plans.find(reader).map(RefreshPlan::mode).orElse(null));
                }
                QueryChanges.appendReaders(rows, readers);
            }
        }
        return new Outcome.Rows(PlanRows.COLUMNS, rows);
    }

    private static StatementException explainRefused(SqlNode node) {
        return StatementException.invalidAt(
                "UnsupportedStatement",
                "EXPLAIN is answered for CREATE [OR ALTER] MATERIALIZED TABLE and for ALTER"
                        + " MATERIALIZED TABLE (every form but REFRESH) only.",
                FlinkSql.positionOf(node),
                "EXPLAIN CREATE [OR ALTER] MATERIALIZED TABLE ..., EXPLAIN ALTER MATERIALIZED TABLE"
                        + " t AS <query>");
    }
}
