package io.mtables.ddl.statements;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.ReservedNames;
import io.mtables.ddl.domain.SourceOptions;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Kind;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.catalog.TableId;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlCreateTableAs;
import org.apache.flink.sql.parser.ddl.SqlCreateTableLike;
import org.apache.flink.sql.parser.ddl.SqlDropTable;
import org.apache.flink.sql.parser.ddl.SqlTableOption;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.operations.ddl.CreateTableOperation;

/** CREATE TABLE and DROP TABLE: the source tables that materialized tables read. */
final class SourceTableStatements {

    private final FlinkSql flink;
    private final Catalog catalog;
    private final SourceOptions options;

    SourceTableStatements(FlinkSql flink, Catalog catalog, SourceOptions options) {
        this.flink = flink;
        this.catalog = catalog;
        this.options = options;
    }

    Outcome create(ParsedStatement parsed, SqlCreateTable create, String requestId, Instant now) {
        if (create instanceof SqlCreateTableAs) {
            throw StatementException.invalidAt(
                    "UnsupportedStatement",
                    "CREATE TABLE ... AS SELECT is not supported: a table defined by a query is a"
                            + " materialized table.",
                    FlinkSql.positionOf(create),
                    "CREATE MATERIALIZED TABLE ... AS SELECT");
        }
        if (create instanceof SqlCreateTableLike) {
            throw StatementException.invalidAt(
                    "UnsupportedStatement",
                    "CREATE TABLE ... LIKE is not supported: declare the columns and options of the"
                            + " source table.",
                    FlinkSql.positionOf(create),
                    "CREATE TABLE name (columns) WITH (options)");
        }
        Statements.refuseTemporary(create.isTemporary(), "table", create);
        String table = Identifiers.qualify(create.fullTableName(), flink, create.getTableName());
        ReservedNames.refuseChange(table, FlinkSql.positionOf(create.getTableName()));
        var existing = catalog.find(table);
        if (existing.isPresent()) {
            if (create.isIfNotExists()) {
                return new Outcome.Unchanged(
                        table,
                        "Table " + table + " already exists; nothing changed (IF NOT EXISTS).");
            }
            throw StatementException.conflict(
                    "TableAlreadyExists",
                    (existing.get().kind() == Kind.MATERIALIZED_TABLE
                                    ? "Materialized table "
                                    : "Table ")
                            + table
                            + " already exists.");
        }
        checkOptions(create);
        TableId id = TableId.of(table);
        flink.ensureDatabase(id.catalog(), id.database());
        CreateTableOperation operation = (CreateTableOperation) flink.convert(parsed.text());
        ResolvedCatalogTable resolved = operation.getCatalogTable();
        flink.checkReadable(table, resolved);
        TableDefinition definition =
                TableDefinitionBuilder.builder()
                        .table(table)
                        .version(catalog.nextVersion(table))
                        .kind(Kind.SOURCE_TABLE)
                        .statement(parsed.text().strip())
                        .columns(TableSchemas.columns(resolved.getResolvedSchema()))
                        .primaryKey(TableSchemas.primaryKey(resolved.getResolvedSchema()))
                        .partitionKeys(List.copyOf(resolved.getPartitionKeys()))
                        .distribution(TableSchemas.distribution(resolved.getDistribution()))
                        .options(TableSchemas.sorted(resolved.getOptions()))
                        .comment(
                                resolved.getComment() == null || resolved.getComment().isEmpty()
                                        ? null
                                        : resolved.getComment())
                        .freshness(null)
                        .refreshMode(null)
                        .query(null)
                        .sources(List.of())
                        .status(TableDefinition.Status.ACTIVE)
                        .resumeOptions(null)
                        .createdAt(now)
                        .updatedAt(now)
                        .requestId(requestId)
                        .build();
        return new Outcome.Defined(
                definition, "Table " + table + " created.", () -> flink.register(definition));
    }

    /** The connector first (it decides which options are allowed), then each option in turn. */
    private void checkOptions(SqlCreateTable create) {
        List<SqlTableOption> written =
                create.getPropertyList().getList().stream()
                        .map(SqlTableOption.class::cast)
                        .toList();
        Set<String> seen = new HashSet<>();
        for (SqlTableOption option : written) {
            if (!seen.add(option.getKeyString())) {
                throw StatementException.invalidAt(
                        "DuplicateOption",
                        "Option '"
                                + option.getKeyString()
                                + "' is given twice in WITH (...): one of them would be taken"
                                + " unchecked. Nothing was changed.",
                        FlinkSql.positionOf(option.getKey()),
                        "each option once");
            }
        }
        Optional<SqlTableOption> connector =
                written.stream().filter(o -> o.getKeyString().equals("connector")).findFirst();
        options.checkConnector(
                connector.map(SqlTableOption::getValueString).orElse(null),
                FlinkSql.positionOf(
                        connector
                                .<SqlNode>map(SqlTableOption::getKey)
                                .orElse(create.getTableName())));
        for (SqlTableOption option : written) {
            options.checkOption(
                    connector.get().getValueString(),
                    option.getKeyString(),
                    option.getValueString(),
                    FlinkSql.positionOf(option.getKey()));
        }
    }

    Outcome drop(SqlDropTable drop, String requestId, Instant now) {
        Statements.refuseTemporary(drop.isTemporary(), "table", drop);
        String table = Identifiers.qualify(drop.fullTableName(), flink, drop.getTableName());
        ReservedNames.refuseChange(table, FlinkSql.positionOf(drop.getTableName()));
        var existing = catalog.find(table);
        if (existing.isEmpty()) {
            if (drop.getIfExists()) {
                return new Outcome.Unchanged(
                        table, "Table " + table + " does not exist; nothing changed (IF EXISTS).");
            }
            throw StatementException.notFound("Table " + table + " does not exist.");
        }
        if (existing.get().kind() == Kind.MATERIALIZED_TABLE) {
            throw StatementException.invalidAt(
                    "WrongTableKind",
                    table + " is a materialized table.",
                    FlinkSql.positionOf(drop.getTableName()),
                    "DROP MATERIALIZED TABLE " + table);
        }
        Statements.refuseWhenRead(catalog, table);
        return new Outcome.Dropped(
                new TableDropped(
                        table, catalog.nextVersion(table), Kind.SOURCE_TABLE, now, requestId),
                "Table " + table + " dropped.");
    }
}
