package io.mtables.ddl.statements;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.InMemorySql;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.ddl.infra.PlainScan;
import io.mtables.ddl.infra.PushedDown;
import io.mtables.ddl.infra.TableQueries;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * SELECT over materialized tables: the rows of each table's latest Paimon snapshot, queried in
 * process (projection, WHERE, joins, aggregates, ORDER BY, LIMIT). Source tables are not read here:
 * they are streams, not tables at rest.
 */
class TableReads {

    private static final String ALLOWED =
            "SELECT ... FROM <materialized table> [WHERE ...] [ORDER BY ...] [LIMIT n]";

    /**
     * Each query shape over each set of tables planned and compiled once (the time of a small
     * read).
     */
    private static final TableQueries PREPARED = new TableQueries(32);

    private final FlinkSql flink;
    private final Catalog catalog;
    private final WarehouseReader warehouse;

    TableReads(FlinkSql flink, Catalog catalog, WarehouseReader warehouse) {
        this.flink = flink;
        this.catalog = catalog;
        this.warehouse = warehouse;
    }

    /** A SELECT over tables the caller may read ({@code checkRead} refuses the others). */
    Outcome select(ParsedStatement parsed, Consumer<TableDefinition> checkRead) {
        Map<String, SqlIdentifier> read = new LinkedHashMap<>();
        collect(parsed.node(), new HashSet<>(), read);
        if (read.isEmpty()) {
            throw StatementException.invalidAt(
                    "UnsupportedStatement",
                    "A SELECT here reads materialized tables; this one reads none.",
                    FlinkSql.positionOf(parsed.node()),
                    ALLOWED);
        }
        String[] current = flink.currentCatalogAndDatabase();
        List<Runnable> reads = new ArrayList<>();
        List<InMemorySql.Table> tables = new ArrayList<>();
        TableDefinition only = null;
        for (var entry : read.entrySet()) {
            String table = entry.getKey();
            TableDefinition definition =
                    catalog.find(table)
                            .orElseThrow(
                                    () ->
                                            StatementException.notFoundAt(
                                                    "Materialized table "
                                                            + table
                                                            + " does not exist.",
                                                    FlinkSql.positionOf(entry.getValue())));
            if (definition.kind() != TableDefinition.Kind.MATERIALIZED_TABLE) {
                throw StatementException.invalidAt(
                        "WrongTableKind",
                        table
                                + " is a source table, a stream; only materialized tables are read"
                                + " here.",
                        FlinkSql.positionOf(entry.getValue()),
                        ALLOWED);
            }
            checkRead.accept(definition);
            only = definition;
            TableId id = TableId.of(table);
            List<List<String>> paths =
                    new ArrayList<>(
                            List.of(
                                    List.of(id.catalog(), id.database(), id.name()),
                                    List.of(id.database(), id.name())));
            if (id.database().equals(current[1])) {
                paths.add(List.of(id.name()));
            }
            // One table read once: its WHERE's comparisons and LIMIT may be applied as it is read.
            PushedDown pushed =
                    read.size() == 1
                            ? ReadPushdowns.of(
                                    parsed.node(),
                                    definition.columns().stream()
                                            .map(TableDefinition.Column::name)
                                            .toList())
                            : PushedDown.NOTHING;
            reads.add(
                    () ->
                            tables.addAll(
                                    warehouse
                                            .read(table, definition.version(), paths, pushed)
                                            .orElseGet(() -> emptyTable(definition, paths))));
        }
        // Checked and allowed: the warehouse is read after the catalog's turn (QueryRunner).
        String text = parsed.text();
        Callable<Outcome.Rows> rows =
                () -> {
                    reads.forEach(Runnable::run);
                    var answer =
                            PREPARED.query(text, tables, "SELECT", ALLOWED, warehouse.limits());
                    return new Outcome.Rows(answer.columns(), answer.rows());
                };
        Optional<PlainScan> plain =
                read.size() == 1
                        ? ReadPushdowns.plainScan(
                                parsed.node(),
                                only.columns().stream().map(TableDefinition.Column::name).toList())
                        : Optional.empty();
        if (plain.isEmpty()) {
            return new Outcome.Read(rows);
        }
        // Rows that go straight from the table to the answer need no query engine: they stream.
        String table = only.table();
        long version = only.version();
        return new Outcome.Read(rows, from -> warehouse.open(table, version, plain.get(), from));
    }

    /** A table not refreshed yet has its columns and no rows. */
    private static List<InMemorySql.Table> emptyTable(
            TableDefinition definition, List<List<String>> paths) {
        List<InMemorySql.Column> columns = new ArrayList<>();
        for (var column : definition.columns()) {
            columns.add(new InMemorySql.Column(column.name(), SqlTypeName.VARCHAR, true));
        }
        return paths.stream()
                .map(path -> new InMemorySql.Table(path, columns, List.<Object[]>of()))
                .toList();
    }

    /**
     * The tables a query reads, qualified, with where they are named; names of WITH items are not
     * tables.
     */
    private void collect(SqlNode node, Set<String> withNames, Map<String, SqlIdentifier> read) {
        if (node == null) {
            return;
        }
        if (node instanceof SqlOrderBy orderBy) {
            collect(orderBy.query, withNames, read);
        } else if (node instanceof SqlWith with) {
            Set<String> names = new HashSet<>(withNames);
            for (SqlNode item : with.withList) {
                collect(((SqlWithItem) item).query, names, read);
                names.add(((SqlWithItem) item).name.getSimple());
            }
            collect(with.body, names, read);
        } else if (node instanceof SqlSelect select) {
            from(select.getFrom(), withNames, read);
            for (SqlNode clause :
                    new SqlNode[] {select.getSelectList(), select.getWhere(), select.getHaving()}) {
                subqueries(clause, withNames, read);
            }
        } else if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.EXPLICIT_TABLE) {
            from(call, withNames, read);
        } else if (node instanceof SqlCall call
                && (call.getKind() == SqlKind.UNION
                        || call.getKind() == SqlKind.INTERSECT
                        || call.getKind() == SqlKind.EXCEPT)) {
            call.getOperandList().forEach(operand -> collect(operand, withNames, read));
        }
    }

    private void from(SqlNode from, Set<String> withNames, Map<String, SqlIdentifier> read) {
        if (from == null) {
            return;
        }
        if (from instanceof SqlIdentifier identifier) {
            if (!(identifier.isSimple() && withNames.contains(identifier.getSimple()))) {
                read.putIfAbsent(
                        Identifiers.qualify(
                                identifier.names.toArray(String[]::new), flink, identifier),
                        identifier);
            }
        } else if (from instanceof SqlJoin join) {
            from(join.getLeft(), withNames, read);
            from(join.getRight(), withNames, read);
        } else if (from instanceof SqlBasicCall call
                && (call.getKind() == SqlKind.AS || call.getKind() == SqlKind.EXPLICIT_TABLE)) {
            from(call.operand(0), withNames, read);
        } else {
            collect(from, withNames, read);
        }
    }

    private void subqueries(SqlNode node, Set<String> withNames, Map<String, SqlIdentifier> read) {
        if (node instanceof SqlNodeList list) {
            list.forEach(item -> subqueries(item, withNames, read));
        } else if (node instanceof SqlSelect
                || node instanceof SqlOrderBy
                || node instanceof SqlWith) {
            collect(node, withNames, read);
        } else if (node instanceof SqlCall call) {
            call.getOperandList().forEach(operand -> subqueries(operand, withNames, read));
        }
    }
}
