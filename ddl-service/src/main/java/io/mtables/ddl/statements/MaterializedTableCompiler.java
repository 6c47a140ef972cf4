package io.mtables.ddl.statements;

import io.mtables.ddl.domain.AllowedOptions;
import io.mtables.ddl.domain.CanonicalStatement;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.MaterializedTableRules;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.planning.TableOptionHints;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Freshness;
import io.mtables.schemas.catalog.TableDefinition.Kind;
import io.mtables.schemas.catalog.TableDefinition.Query;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.catalog.TableDefinition.SourceTable;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.catalog.TableId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.flink.sql.parser.ddl.SqlCreateMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlTableOption;
import org.apache.flink.table.catalog.CatalogMaterializedTable;
import org.apache.flink.table.catalog.ResolvedCatalogMaterializedTable;
import org.apache.flink.table.operations.materializedtable.CreateMaterializedTableOperation;

/**
 * Validates a CREATE MATERIALIZED TABLE statement with Flink against the catalog and derives
 * everything a definition holds: the schema from the query, the declared clauses, and the tables
 * the query reads.
 */
final class MaterializedTableCompiler {

    private final FlinkSql flink;
    private final Catalog catalog;

    MaterializedTableCompiler(FlinkSql flink, Catalog catalog) {
        this.flink = flink;
        this.catalog = catalog;
    }

    /**
     * The parts of a definition that the statement determines.
     *
     * @param table the qualified identifier
     * @param canonical the statement in canonical form
     * @param draft a definition with version 0 and no timestamps; the caller completes it
     */
    record Compiled(String table, CanonicalStatement canonical, TableDefinition draft) {}

    Compiled compile(ParsedStatement parsed) {
        SqlCreateMaterializedTable create = (SqlCreateMaterializedTable) parsed.node();
        String table = Identifiers.qualify(create.fullTableName(), flink, create.getTableName());
        checkOptions(create);
        refuseOptionHints(create.getAsQuery());
        TableId id = TableId.of(table);
        flink.ensureDatabase(id.catalog(), id.database());
        ResolvedCatalogMaterializedTable resolved = convert(parsed);
        RefreshMode declared = declaredMode(parsed, create.getRefreshMode());
        RefreshMode effective =
                resolved.getRefreshMode() == CatalogMaterializedTable.RefreshMode.FULL
                        ? RefreshMode.FULL
                        : RefreshMode.CONTINUOUS;
        MaterializedTableRules.checkDateFormatters(
                resolved.getOptions(), effective, FlinkSql.positionOf(create.getPropertyList()));
        Freshness freshness =
                create.getFreshness() == null
                        ? null
                        : new Freshness(
                                resolved.getDefinitionFreshness().getIntervalInt(),
                                resolved.getDefinitionFreshness().getTimeUnit().name());
        String originalQuery = queryText(parsed.text(), create.getAsQuery());
        String expandedQuery = resolved.getDefinitionQuery();
        List<SourceTable> sources = sourcesOf(expandedQuery, table);
        var schema = resolved.getResolvedSchema();
        CanonicalStatement canonical =
                new CanonicalStatement(
                        table,
                        TableSchemas.primaryKey(schema),
                        emptyToNull(resolved.getComment()),
                        TableSchemas.distribution(resolved.getDistribution()),
                        List.copyOf(resolved.getPartitionKeys()),
                        TableSchemas.sorted(resolved.getOptions()),
                        freshness,
                        declared,
                        originalQuery);
        TableDefinition draft =
                TableDefinitionBuilder.builder()
                        .table(table)
                        .version(0)
                        .kind(Kind.MATERIALIZED_TABLE)
                        .statement(canonical.text())
                        .columns(TableSchemas.columns(schema))
                        .primaryKey(canonical.primaryKey())
                        .partitionKeys(canonical.partitionKeys())
                        .distribution(canonical.distribution())
                        .options(canonical.options())
                        .comment(canonical.comment())
                        .freshness(freshness)
                        .refreshMode(declared)
                        .query(new Query(originalQuery, expandedQuery))
                        .sources(sources)
                        .status(TableDefinition.Status.ACTIVE)
                        .resumeOptions(null)
                        .createdAt(null)
                        .updatedAt(null)
                        .requestId(null)
                        .build();
        return new Compiled(table, canonical, draft);
    }

    /**
     * The WITH options as written, each one allowed ({@link AllowedOptions#MATERIALIZED_TABLE}),
     * before Flink sees them; the options the job manager adds to the Paimon table are not here.
     */
    private static void checkOptions(SqlCreateMaterializedTable create) {
        if (create.getPropertyList() == null) {
            return;
        }
        for (SqlNode node : create.getPropertyList()) {
            SqlTableOption option = (SqlTableOption) node;
            AllowedOptions.MATERIALIZED_TABLE.check(
                    option.getKeyString(),
                    option.getValueString(),
                    FlinkSql.positionOf(option.getKey()));
        }
    }

    /** A query sets no table's options: Flink would apply them past every allow-list. */
    static void refuseOptionHints(SqlNode query) {
        for (SqlHint hint : TableOptionHints.in(query)) {
            throw StatementException.invalidAt(
                    AllowedOptions.NOT_ALLOWED,
                    "A query may not set a table's options with /*+ OPTIONS(...) */: they would"
                            + " reach the source's connector or the table's storage past the"
                            + " options allowed there. Nothing was changed.",
                    FlinkSql.positionOf(hint),
                    "a source table's options in its CREATE TABLE; a materialized table's in WITH"
                            + " (...) or ALTER MATERIALIZED TABLE ... SET (...)");
        }
    }

    private ResolvedCatalogMaterializedTable convert(ParsedStatement parsed) {
        try {
            return ((CreateMaterializedTableOperation) flink.convert(parsed.text()))
                    .getCatalogMaterializedTable();
        } catch (StatementException e) {
            if (MaterializedTableRules.isCronPeriodError(e.getMessage())) {
                SqlCreateMaterializedTable create = (SqlCreateMaterializedTable) parsed.node();
                throw StatementException.invalidAt(
                        "FreshnessNotACronPeriod",
                        e.getMessage()
                                + " A FULL table refreshes on a cron period, so its freshness must"
                                + " divide the next larger unit.",
                        FlinkSql.positionOf(create.getFreshness()),
                        MaterializedTableRules.CRON_PERIODS);
            }
            throw e;
        }
    }

    private static RefreshMode declaredMode(ParsedStatement parsed, SqlLiteral mode) {
        if (parsed.autoRefreshMode() || mode == null) {
            return RefreshMode.AUTO;
        }
        return mode.toValue().toUpperCase().contains("FULL")
                ? RefreshMode.FULL
                : RefreshMode.CONTINUOUS;
    }

    /**
     * The AS query as the user wrote it: from its first token to the end, without a final
     * semicolon.
     */
    static String queryText(String text, SqlNode asQuery) {
        int start = FlinkSql.positionOf(asQuery).offsetIn(text);
        // A query in parentheses starts before its node: step back over the opening ones.
        int open = start;
        while (open > 0
                && (Character.isWhitespace(text.charAt(open - 1))
                        || text.charAt(open - 1) == '(')) {
            open--;
        }
        String before = text.substring(open, start);
        if (before.contains("(")) {
            start = open + before.indexOf('(');
        }
        String query = text.substring(start).strip();
        while (query.endsWith(";")) {
            query = query.substring(0, query.length() - 1).strip();
        }
        return query;
    }

    /** The catalog tables named in the expanded query, which Flink writes fully qualified. */
    private List<SourceTable> sourcesOf(String expandedQuery, String self) {
        Set<String> names = new LinkedHashSet<>();
        flink.parseQuery(expandedQuery)
                .accept(
                        new SqlBasicVisitor<Void>() {
                            @Override
                            public Void visit(SqlIdentifier identifier) {
                                if (identifier.names.size() == 3) {
                                    names.add(String.join(".", identifier.names));
                                }
                                return null;
                            }
                        });
        if (names.contains(self)) {
            throw StatementException.invalid(
                    "SelfReference",
                    "Materialized table " + self + " cannot read itself.",
                    "a query over other tables");
        }
        List<SourceTable> sources = new ArrayList<>();
        for (String name : names) {
            catalog.find(name)
                    .ifPresent(
                            t ->
                                    sources.add(
                                            new SourceTable(
                                                    t.table(),
                                                    t.kind(),
                                                    t.version(),
                                                    t.statement(),
                                                    t.columns(),
                                                    t.partitionKeys())));
        }
        return sources;
    }

    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }
}
