package io.mtables.ddl.infra;

import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.domain.StatementException;
import io.mtables.planning.FlinkSyntax;
import io.mtables.planning.PlannerSettings;
import io.mtables.planning.PlannerThread;
import io.mtables.planning.WarmUp;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.materializedtable.CreateMaterializedTableOperation;

/**
 * Flink's SQL front end, holding a mirror of our catalog so that queries resolve against it: the
 * parser gives the syntax tree (with positions), the planner converts a statement into an operation
 * with its derived schema. Not thread-safe: one statement at a time, on {@link #onPlannerThread}.
 */
public class FlinkSql {

    private static final int MAX_REPAIRS = 3;
    private static final SqlParser.Config SYNTAX = FlinkSyntax.PARSER;

    /** Flink's planner must be called on the thread that created it (see PlannerThread). */
    private final PlannerThread plannerThread = new PlannerThread("ddl-flink-planner");

    private final TableEnvironment env;

    public FlinkSql(Duration freshnessThreshold) {
        Configuration configuration = new Configuration();
        configuration.setString(
                PlannerSettings.FRESHNESS_THRESHOLD_KEY, freshnessThreshold.toSeconds() + " s");
        env =
                onPlannerThread(
                        () ->
                                TableEnvironment.create(
                                        EnvironmentSettings.newInstance()
                                                .inStreamingMode()
                                                .withConfiguration(configuration)
                                                .build()));
    }

    /** Runs {@code work} on the thread that owns Flink's planner, and waits for it. */
    public <T> T onPlannerThread(Callable<T> work) {
        return plannerThread.call(work);
    }

    /**
     * Parses and converts {@link WarmUp}'s CREATE MATERIALIZED TABLE once over its sources, then
     * removes them: the first user's statement then finds Flink's parser and validator warm.
     */
    public void warmUp() {
        TableDefinition table = WarmUp.definition();
        onPlannerThread(
                () -> {
                    ensureDatabase(TableId.of(table.table()).catalog(), WarmUp.DATABASE);
                    try {
                        table.sources().forEach(source -> execute(source.statement()));
                        if (!(convert(parse(table.statement()).text())
                                instanceof CreateMaterializedTableOperation)) {
                            throw new IllegalStateException(
                                    "the warm-up statement is not a CREATE MATERIALIZED TABLE");
                        }
                    } finally {
                        execute(
                                "DROP DATABASE IF EXISTS "
                                        + TableId.quote(TableId.of(table.table()).catalog())
                                        + "."
                                        + TableId.quote(WarmUp.DATABASE)
                                        + " CASCADE");
                    }
                    return null;
                });
    }

    /** The syntax tree of one statement, with the dialect's extensions applied. */
    public ParsedStatement parse(String statement) {
        var explainRepair = DialectExtensions.explainMaterialized(statement);
        boolean explain = explainRepair != null;
        var describeRepair = explain ? null : DialectExtensions.describeMaterialized(statement);
        String text =
                explain
                        ? explainRepair.text()
                        : describeRepair == null ? statement : describeRepair.text();
        boolean createOrAlter = false;
        boolean auto = false;
        boolean describe = describeRepair != null;
        for (int attempt = 0; ; attempt++) {
            try {
                SqlNode node = SqlParser.create(text, SYNTAX).parseStmt();
                return new ParsedStatement(text, node, createOrAlter, auto, describe, explain);
            } catch (Exception error) {
                var repair =
                        attempt < MAX_REPAIRS
                                ? DialectExtensions.repair(
                                        text,
                                        FlinkErrors.encounteredToken(error),
                                        FlinkErrors.syntaxPosition(error))
                                : null;
                if (repair == null) {
                    throw SyntaxHints.explain(FlinkErrors.syntax(error), text);
                }
                text = repair.text();
                switch (repair.extension()) {
                    case AUTO_REFRESH_MODE -> auto = true;
                    case CREATE_OR_ALTER -> createOrAlter = true;
                    case DESCRIBE_MATERIALIZED -> describe = true;
                    case EXPLAIN_MATERIALIZED -> explain = true;
                    case DISTRIBUTION_AFTER_PARTITIONING -> {
                        // nothing to remember: the clauses mean the same in either order
                    }
                }
            }
        }
    }

    /** The syntax tree of a query Flink wrote itself (an expanded query). */
    public SqlNode parseQuery(String query) {
        try {
            return SqlParser.create(query, SYNTAX).parseQuery();
        } catch (Exception error) {
            throw new IllegalStateException(
                    "Flink's expanded query does not parse: " + query, error);
        }
    }

    /** The operation Flink makes of {@code text}: validated against the mirrored catalog. */
    public Operation convert(String text) {
        List<Operation> operations;
        try {
            operations = ((TableEnvironmentInternal) env).getParser().parse(text);
        } catch (Exception error) {
            throw FlinkErrors.validation(error);
        }
        return operations.get(0);
    }

    /** Runs a catalog statement (CREATE TABLE, DROP TABLE, ...) against the mirror. */
    public void execute(String text) {
        try {
            env.executeSql(text);
        } catch (Exception error) {
            throw FlinkErrors.validation(error);
        }
    }

    /**
     * Checks that Flink can create a reader for a table with these options: the connector and
     * format factories are found and accept the options, exactly as when a job plans the table.
     */
    public void checkReadable(String table, ResolvedCatalogTable definition) {
        TableId id = TableId.of(table);
        try {
            FactoryUtil.createDynamicTableSource(
                    null,
                    ObjectIdentifier.of(id.catalog(), id.database(), id.name()),
                    definition,
                    Map.of(),
                    env.getConfig(),
                    Thread.currentThread().getContextClassLoader(),
                    false);
        } catch (Exception error) {
            throw FlinkErrors.validation(error);
        }
    }

    /**
     * Creates {@code catalog.database} in the mirror if it is missing: databases are implicit here.
     */
    public void ensureDatabase(String catalog, String database) {
        var flinkCatalog =
                env.getCatalog(catalog)
                        .orElseThrow(
                                () ->
                                        StatementException.invalid(
                                                "UnknownCatalog",
                                                "Catalog " + catalog + " does not exist.",
                                                env.getCurrentCatalog()));
        if (!flinkCatalog.databaseExists(database)) {
            execute(
                    "CREATE DATABASE IF NOT EXISTS "
                            + TableId.quote(catalog)
                            + "."
                            + TableId.quote(database));
        }
    }

    /**
     * Puts a table of our catalog into the mirror so that later queries resolve against it. A
     * source table is its own statement. A materialized table is mirrored as a plain table with its
     * derived schema over the {@code datagen} connector: here only its schema matters (queries that
     * read it must validate), while how it is read (Paimon) is the job manager's business.
     */
    public void register(TableDefinition table) {
        TableId id = TableId.of(table.table());
        ensureDatabase(id.catalog(), id.database());
        forget(table.table());
        if (table.kind() == TableDefinition.Kind.SOURCE_TABLE) {
            execute(table.statement());
            return;
        }
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(id.quoted()).append(" (");
        for (int i = 0; i < table.columns().size(); i++) {
            var column = table.columns().get(i);
            ddl.append(i == 0 ? "" : ", ")
                    .append(TableId.quote(column.name()))
                    .append(' ')
                    .append(column.type())
                    .append(column.nullable() ? "" : " NOT NULL");
        }
        if (!table.primaryKey().isEmpty()) {
            ddl.append(", PRIMARY KEY (")
                    .append(
                            String.join(
                                    ", ", table.primaryKey().stream().map(TableId::quote).toList()))
                    .append(") NOT ENFORCED");
        }
        ddl.append(") WITH ('connector' = 'datagen')");
        execute(ddl.toString());
    }

    /** Removes a table from the mirror, if it is there. */
    public void forget(String table) {
        TableId id = TableId.of(table);
        env.getCatalog(id.catalog())
                .ifPresent(
                        catalog -> {
                            try {
                                catalog.dropTable(new ObjectPath(id.database(), id.name()), true);
                            } catch (Exception e) {
                                throw new IllegalStateException(
                                        "cannot remove " + table + " from the Flink catalog", e);
                            }
                        });
    }

    /** The current catalog and database, for qualifying names written without them. */
    public String[] currentCatalogAndDatabase() {
        return new String[] {env.getCurrentCatalog(), env.getCurrentDatabase()};
    }

    /** Where {@code node} starts, as a position. */
    public static SourcePosition positionOf(SqlNode node) {
        return node == null
                ? null
                : new SourcePosition(
                        node.getParserPosition().getLineNum(),
                        node.getParserPosition().getColumnNum());
    }
}
