package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * Asks Flink's planner about a materialized table's query: in streaming mode, whether it runs as a
 * stream, its changelog, its unique keys and its stateful operators; in batch mode, whether it runs
 * as a batch. The source tables are declared from the definitions the event carries. Every verdict
 * is Flink's own; the plan text is read only for the names Flink gives its operators and
 * expressions ({@link ExplainText}). Not thread-safe: one analysis at a time.
 */
public class FlinkQueryAnalyzer {

    /** Flink's planner must be called on the thread that created it (see PlannerThread). */
    private final PlannerThread flinkThread = new PlannerThread("flink-planner");

    private final TableEnvironment streaming;
    private final TableEnvironment batch;
    private final UpstreamTables upstream;

    public FlinkQueryAnalyzer() {
        streaming =
                onFlinkThread(
                        () -> {
                            TableEnvironment env =
                                    TableEnvironment.create(EnvironmentSettings.inStreamingMode());
                            env.executeSql(
                                    EmptyInputRow
                                            .DECLARE_ONE_ROW); // once: a held empty-input row's job
                            // is planned against it
                            return env;
                        });
        batch = onFlinkThread(() -> TableEnvironment.create(EnvironmentSettings.inBatchMode()));
        upstream = new UpstreamTables();
    }

    /**
     * Plans {@link WarmUp}'s table once and {@code repeats} times more for the JIT (each one task
     * on the planner's thread, which a user's table waits for at most), then removes its tables.
     *
     * @throws IllegalStateException when Flink does not find it streamable: the warm-up would not
     *     have warmed what a user's table needs
     */
    public void warmUp(int repeats) {
        QueryAnalysis analysis = analyze(WarmUp.definition());
        for (int i = 0; i < repeats; i++) {
            analyze(WarmUp.definition());
        }
        onFlinkThread(
                () -> {
                    for (TableEnvironment env : List.of(streaming, batch)) {
                        env.executeSql(
                                "DROP DATABASE IF EXISTS `default_catalog`.`"
                                        + WarmUp.DATABASE
                                        + "` CASCADE");
                    }
                    return null;
                });
        if (analysis.verdict() != QueryAnalysis.Verdict.STREAMABLE) {
            throw new IllegalStateException(
                    "the warm-up table planned as " + analysis.verdict() + ": " + analysis);
        }
    }

    /** What Flink's planner says about {@code table}'s query, which reads no materialized table. */
    public QueryAnalysis analyze(TableDefinition table) {
        return analyze(table, UpstreamPlans.NONE);
    }

    /**
     * What Flink's planner says about {@code table}'s query; the materialized tables it reads are
     * planned as Paimon tables of their shape, written as their current plans say.
     */
    public QueryAnalysis analyze(TableDefinition table, UpstreamPlans upstreamPlans) {
        return onFlinkThread(() -> analyzeHere(table, upstreamPlans));
    }

    /**
     * Whether the state of {@code running}'s streaming job can be carried into a job of {@code
     * changed}'s query: Flink's compiled plans of both, compared ({@link StateCompatibility}). A
     * plan Flink cannot compile is UNKNOWN, in Flink's words.
     */
    public StateCompatibility.Result stateVerdict(
            TableDefinition running, TableDefinition changed, UpstreamPlans upstreamPlans) {
        return onFlinkThread(
                () -> {
                    String before;
                    String after;
                    try {
                        before = compiledPlan(running, upstreamPlans);
                    } catch (RuntimeException e) {
                        return new StateCompatibility.Result(
                                StateCompatibility.Verdict.UNKNOWN,
                                "Flink cannot compile the running query's plan here: "
                                        + deepestMessage(e));
                    }
                    try {
                        after = compiledPlan(changed, upstreamPlans);
                    } catch (RuntimeException e) {
                        return new StateCompatibility.Result(
                                StateCompatibility.Verdict.UNKNOWN,
                                "Flink cannot compile the new query's plan here: "
                                        + deepestMessage(e));
                    }
                    return StateCompatibility.compare(before, after);
                });
    }

    /**
     * The table's columns that hold the end of the window each row belongs to ({@link WindowEnds}),
     * from Flink's compiled streaming plan of its query; empty when there are none or Flink cannot
     * compile the plan here.
     */
    public Set<String> windowEnds(TableDefinition table, UpstreamPlans upstreamPlans) {
        return onFlinkThread(
                () -> {
                    try {
                        return WindowEnds.of(compiledPlan(table, upstreamPlans));
                    } catch (RuntimeException e) {
                        return Set.<String>of();
                    }
                });
    }

    /**
     * Flink's compiled streaming plan (COMPILE PLAN's JSON) of the query, written to a blackhole of
     * its shape.
     */
    private String compiledPlan(TableDefinition table, UpstreamPlans upstreamPlans) {
        shapeStreamingPlanOf(table);
        for (var source : table.sources()) {
            if (source.kind() == TableDefinition.Kind.MATERIALIZED_TABLE) {
                upstream.declare(streaming, source, runnablePlan(source, upstreamPlans));
            } else {
                declareStreaming(source);
            }
        }
        Table query = streaming.sqlQuery(table.query().expanded());
        TableDescriptor sink =
                TableDescriptor.forConnector("blackhole")
                        .schema(
                                Schema.newBuilder()
                                        .fromResolvedSchema(query.getResolvedSchema())
                                        .build())
                        .build();
        return query.insertInto(sink).compilePlan().asJsonString();
    }

    /** The options the job manager runs {@code table}'s streaming job with that change its plan. */
    private void shapeStreamingPlanOf(TableDefinition table) {
        PlanShapingOptions.streaming(table).forEach(streaming.getConfig()::set);
    }

    private <T> T onFlinkThread(Callable<T> work) {
        return flinkThread.call(work);
    }

    private QueryAnalysis analyzeHere(TableDefinition table, UpstreamPlans upstreamPlans) {
        shapeStreamingPlanOf(table);
        List<String> overwritten = new ArrayList<>();
        try {
            for (var source : table.sources()) {
                if (source.kind() == TableDefinition.Kind.MATERIALIZED_TABLE) {
                    RefreshPlan plan = runnablePlan(source, upstreamPlans);
                    upstream.declare(streaming, source, plan);
                    upstream.declare(batch, source, plan);
                    if (plan.mode() == RefreshPlan.Mode.FULL) {
                        overwritten.add(source.table());
                    }
                } else {
                    declareStreaming(source);
                    declare(batch, source);
                    boundForBatch(source);
                }
            }
        } catch (BlockedByUpstream blocked) {
            return QueryAnalysis.blocked(blocked.getMessage());
        } catch (RuntimeException e) {
            return QueryAnalysis.unknown(
                    "its source tables could not be declared here (" + deepestMessage(e) + ")");
        }
        String query = table.query().expanded();
        // Validation first: a query that does not even validate here says nothing about streaming.
        Table validated;
        try {
            validated = streaming.sqlQuery(query);
        } catch (RuntimeException invalid) {
            return QueryAnalysis.unknown(
                    "the query does not validate here (" + deepestMessage(invalid) + ")");
        }
        BatchPlan batchPlan = batchPlan(query);
        QueryAnalysis.BatchCheck batchCheck = batchPlan.check();
        Map<String, Map<String, String>> partitionSources =
                batchCheck.runs()
                        ? PartitionLocality.of(
                                batch,
                                table,
                                probe -> ExplainText.physicalPlan(batch.explainSql(probe)))
                        : Map.of();
        if (!overwritten.isEmpty()) {
            // Paimon's streaming read skips overwrite commits, which is all a FULL table is made
            // of.
            return QueryAnalysis.notStreamable(
                            "it reads "
                                    + String.join(", ", overwritten)
                                    + ", FULL and so rewritten by overwrites, which a streaming"
                                    + " read does not follow")
                    .withUniqueKeys(FlinkUniqueKeys.of(validated))
                    .withBatch(batchCheck)
                    .withPartitionSources(partitionSources)
                    .withVolatileFunctions(ExplainText.volatileFunctions(batchPlan.plan()))
                    .withTimeFunctions(ExplainText.timeFunctionsInConditions(batchPlan.plan()));
        }
        // A valid query that the streaming planner cannot turn into a plan cannot run as a stream.
        String plan;
        try {
            plan = streaming.explainSql(query, ExplainDetail.CHANGELOG_MODE);
        } catch (RuntimeException streamingError) {
            return QueryAnalysis.notStreamable(deepestMessage(streamingError))
                    .withBatch(batchCheck)
                    .withPartitionSources(partitionSources)
                    .withVolatileFunctions(ExplainText.volatileFunctions(batchPlan.plan()))
                    .withTimeFunctions(ExplainText.timeFunctionsInConditions(batchPlan.plan()));
        }
        // The time functions are read from a plan already made (its syntax tree comes first):
        // planning the query once more only to print it cost a third of the analysis (bin/bench
        // control-plane).
        List<List<String>> keys = FlinkUniqueKeys.of(validated);
        return QueryAnalysis.streamable(ExplainText.rootChangelog(plan))
                .withUniqueKeys(keys)
                .withEmptyInputRow(
                        keys != null && keys.contains(List.of())
                                ? emptyInputRow(table, validated)
                                : null)
                .withBranchKeys(
                        keys != null && keys.isEmpty() ? branchKeys(query, validated) : null)
                .withBatch(batchCheck)
                .withPartitionSources(partitionSources)
                .withVolatileFunctions(ExplainText.volatileFunctions(batchPlan.plan()))
                .withStatefulOperators(ExplainText.statefulOperators(plan))
                .withRegularJoin(ExplainText.hasRegularJoin(plan))
                .withTimeFunctions(ExplainText.timeFunctionsInConditions(plan))
                .withLatestValueSources(
                        ExplainText.changelogSources(plan).stream()
                                .filter(name -> !UpstreamTables.isScratch(name))
                                .toList());
    }

    /**
     * The row a global aggregate holds while it reads none, when the streaming job that holds it
     * plans; a query whose job does not plan keeps Flink's own semantics (no row) with the plan's
     * warning.
     */
    private List<String> emptyInputRow(TableDefinition table, Table validated) {
        List<String> row = EmptyInputRow.of(validated);
        if (row == null
                || row.isEmpty()
                || table.columns() == null
                || row.size() != table.columns().size()) {
            return row;
        }
        try {
            streaming.explainSql(EmptyInputRow.held(table, row));
            return row;
        } catch (RuntimeException cannotPlan) {
            return null;
        }
    }

    /**
     * Each branch's smallest key when {@code query} is a UNION ALL (null for a branch without one),
     * named by the union's output columns, which take a branch's columns by position; else null.
     */
    private List<List<String>> branchKeys(String query, Table union) {
        List<String> branches = UnionBranches.of(query);
        if (branches.isEmpty()) {
            return null;
        }
        List<String> output = union.getResolvedSchema().getColumnNames();
        List<List<String>> keys = new ArrayList<>();
        for (String branch : branches) {
            Table planned = streaming.sqlQuery(branch);
            List<List<String>> branchKeys = FlinkUniqueKeys.of(planned);
            if (branchKeys == null || branchKeys.isEmpty()) {
                keys.add(null);
                continue;
            }
            List<String> own = planned.getResolvedSchema().getColumnNames();
            keys.add(
                    branchKeys.get(0).stream()
                            .map(column -> output.get(own.indexOf(column)))
                            .toList());
        }
        return keys;
    }

    /** The upstream table's plan, if it is one its readers can run on. */
    private static RefreshPlan runnablePlan(
            TableDefinition.SourceTable source, UpstreamPlans plans) {
        if (source.columns() == null) {
            throw new BlockedByUpstream(
                    "the definition names "
                            + source.table()
                            + " without its columns (written by an older version); run the"
                            + " CREATE OR ALTER statement again");
        }
        RefreshPlan plan =
                plans.find(source.table())
                        .orElseThrow(
                                () ->
                                        new BlockedByUpstream(
                                                "it reads "
                                                        + source.table()
                                                        + ", which has no plan yet"));
        if (plan.mode() == null
                || plan.status() == RefreshPlan.Status.REFUSED
                || plan.status() == RefreshPlan.Status.DROPPED) {
            throw new BlockedByUpstream(
                    "it reads "
                            + source.table()
                            + ", whose plan is "
                            + plan.status()
                            + " and so has no data to read");
        }
        return plan;
    }

    /** A materialized table the query reads cannot be read. */
    private static final class BlockedByUpstream extends RuntimeException {
        BlockedByUpstream(String message) {
            super(message);
        }
    }

    /** Whether the query runs as a batch job, and its plan when it does (else empty). */
    private record BatchPlan(QueryAnalysis.BatchCheck check, String plan) {}

    private BatchPlan batchPlan(String query) {
        try {
            return new BatchPlan(QueryAnalysis.BatchCheck.RUNS, batch.explainSql(query));
        } catch (RuntimeException batchError) {
            return new BatchPlan(QueryAnalysis.BatchCheck.cannot(deepestMessage(batchError)), "");
        }
    }

    private static void declare(TableEnvironment env, TableDefinition.SourceTable source) {
        TableId id = TableId.of(source.table());
        env.executeSql("CREATE DATABASE IF NOT EXISTS " + id.quotedDatabase());
        env.getCatalog(id.catalog()).ifPresent(catalog -> dropQuietly(catalog, id));
        env.executeSql(source.statement());
    }

    /**
     * A streaming job reads a source with its watermark held during a snapshot, as planned here.
     */
    private void declareStreaming(TableDefinition.SourceTable source) {
        declare(streaming, source);
        SnapshotHeldWatermark.apply(streaming, source.table());
    }

    /** A batch refresh reads a source up to where it stands when the refresh starts. */
    private void boundForBatch(TableDefinition.SourceTable source) {
        TableId id = TableId.of(source.table());
        Map<String, String> options;
        try {
            options =
                    batch.getCatalog(id.catalog())
                            .orElseThrow()
                            .getTable(new ObjectPath(id.database(), id.name()))
                            .getOptions();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the options of " + source.table(), e);
        }
        Map<String, String> extra = BoundedReads.extraOptions(options);
        if (!extra.isEmpty()) {
            StringBuilder set = new StringBuilder();
            extra.forEach(
                    (k, v) ->
                            set.append(set.isEmpty() ? "" : ", ")
                                    .append(PaimonTables.literal(k))
                                    .append(" = ")
                                    .append(PaimonTables.literal(v)));
            batch.executeSql("ALTER TABLE " + id.quoted() + " SET (" + set + ")");
        }
    }

    private static void dropQuietly(Catalog catalog, TableId id) {
        try {
            catalog.dropTable(new ObjectPath(id.database(), id.name()), true);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot replace " + id + " in the planner's catalog", e);
        }
    }

    private static String deepestMessage(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        String message = deepest.getMessage() == null ? error.getMessage() : deepest.getMessage();
        message = message == null ? "" : message.lines().findFirst().orElse(message).strip();
        // Flink's own refusals say what is wrong; anything else is a failure inside its planner,
        // whose bare message ("4") means nothing without its kind.
        boolean flinksWords =
                deepest instanceof TableException
                        || deepest instanceof ValidationException
                        || deepest.getClass().getName().startsWith("org.apache.calcite.");
        return flinksWords
                ? message
                : "Flink's planner failed on this query ("
                        + deepest.getClass().getSimpleName()
                        + ": "
                        + message
                        + ")";
    }
}
