package io.mtables.planning;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;

/**
 * How the rows an old query already wrote become the new query's rows, computed from those rows
 * alone: the query that a job manager runs over the table before a job restored from the old
 * query's state goes on with the new one (a COMPATIBLE change, docs/evolution.md). A restored job
 * only emits rows whose input changes again; without this, a row written before the change would
 * keep the old query's values (a new column NULL, a row a new HAVING drops still there).
 *
 * <p>Read from the syntax trees of both queries (Flink's parser), for the two shapes of a change
 * that only follows the state: the new query wraps the old one ({@code SELECT ... FROM (<old>)
 * WHERE ...}), or both are one SELECT over the same FROM, WHERE and GROUP BY whose select list (and
 * HAVING, where the old query had none) differs. Every part of the new select list and HAVING must
 * be computable from the old query's output columns: each subexpression equal to one of the old
 * query's select items is replaced by that column; anything else naming the query's inputs (a
 * column the old query does not output, an aggregate of its own) means the rows cannot be
 * rewritten, and the change is carried out by a switch-over instead. The key and partition columns
 * must be carried unchanged, so each rewritten row replaces the row it came from.
 */
public final class WrittenRows {

    /** The relation the rewrite reads: the table's rows, with the old query's columns. */
    public static final String WRITTEN = "__mt_written";

    /** The rewrite, or why there is none. Exactly one of the two is present. */
    public record Rewrite(Optional<String> query, Optional<String> impossible) {
        public static Rewrite of(String query) {
            return new Rewrite(Optional.of(query), Optional.empty());
        }

        public static Rewrite impossible(String reason) {
            return new Rewrite(Optional.empty(), Optional.of(reason));
        }
    }

    private WrittenRows() {}

    /**
     * The query over {@link #WRITTEN} whose answer is {@code newQuery}'s rows for the rows {@code
     * oldQuery} wrote, named {@code newColumns}.
     *
     * @param oldColumns the old query's output columns, as the table names them
     * @param carried the columns every rewritten row must keep (the key and partition columns)
     */
    public static Rewrite of(
            String oldQuery,
            List<String> oldColumns,
            String newQuery,
            List<String> newColumns,
            Collection<String> carried) {
        SqlNode before;
        SqlNode after;
        try {
            before = SqlParser.create(oldQuery, FlinkSyntax.PARSER).parseQuery();
            after = SqlParser.create(newQuery, FlinkSyntax.PARSER).parseQuery();
        } catch (SqlParseException e) {
            return Rewrite.impossible("Flink's parser does not read the query: " + e.getMessage());
        }
        if (!(after instanceof SqlSelect select)) {
            return Rewrite.impossible("the new query is not one SELECT");
        }
        try {
            SqlSelect rewritten =
                    wrapsTheOld(select, before)
                            ? overWritten(select)
                            : sameLevel(before, oldColumns, select);
            checkCarried(rewritten, newColumns, carried);
            return Rewrite.of(rewritten.toSqlString(FlinkSyntax.DIALECT).getSql());
        } catch (NotComputable e) {
            return Rewrite.impossible(e.getMessage());
        }
    }

    /** {@code SELECT ... FROM (<old query>) [AS x] [WHERE ...]}. */
    private static boolean wrapsTheOld(SqlSelect select, SqlNode oldQuery) {
        SqlNode from = select.getFrom();
        if (from != null && from.getKind() == SqlKind.AS) {
            from = ((SqlBasicCall) from).operand(0);
        }
        return from != null && from.equalsDeep(oldQuery, Litmus.IGNORE);
    }

    /** The outer query as it is, reading the written rows instead of the old query. */
    private static SqlSelect overWritten(SqlSelect select) {
        if (select.getGroup() != null
                || select.getHaving() != null
                || select.getWindowList().size() > 0
                || select.getQualify() != null
                || select.getOrderList() != null
                || select.getFetch() != null
                || select.isDistinct()) {
            throw new NotComputable(
                    "the query around the old one groups, orders or limits: that is state of its"
                            + " own");
        }
        SqlShuttle noAggregates =
                new SqlShuttle() {
                    @Override
                    public SqlNode visit(SqlCall call) {
                        if (call.getOperator().isAggregator() || call.getKind() == SqlKind.OVER) {
                            throw new NotComputable(
                                    "the query around the old one aggregates: " + call);
                        }
                        return super.visit(call);
                    }
                };
        select.getSelectList().accept(noAggregates);
        if (select.getWhere() != null) {
            select.getWhere().accept(noAggregates);
        }
        SqlNode from = select.getFrom();
        SqlIdentifier written = new SqlIdentifier(WRITTEN, SqlParserPos.ZERO);
        select.setFrom(
                from.getKind() == SqlKind.AS
                        ? as(written, ((SqlBasicCall) from).operand(1))
                        : written);
        return select;
    }

    /**
     * The same FROM, WHERE and GROUP BY: the new select list and HAVING with every subexpression
     * that is one of the old select items replaced by its column.
     */
    private static SqlSelect sameLevel(SqlNode oldQuery, List<String> oldColumns, SqlSelect after) {
        if (!(oldQuery instanceof SqlSelect before)) {
            throw new NotComputable("the old query is not one SELECT");
        }
        if (!same(before.getFrom(), after.getFrom())
                || !same(before.getWhere(), after.getWhere())
                || !same(before.getGroup(), after.getGroup())
                || !same(before.getWindowList(), after.getWindowList())
                || !same(before.getQualify(), after.getQualify())
                || !same(before.getOrderList(), after.getOrderList())
                || !same(before.getFetch(), after.getFetch())
                || !same(before.getOffset(), after.getOffset())
                || before.isDistinct() != after.isDistinct()) {
            throw new NotComputable("the queries differ in more than their select list and HAVING");
        }
        if (before.getHaving() != null && !same(before.getHaving(), after.getHaving())) {
            throw new NotComputable(
                    "the old query's HAVING dropped rows the new one may keep: they are not in the"
                            + " table");
        }
        List<SqlNode> items = before.getSelectList().getList();
        if (items.size() != oldColumns.size()) {
            throw new NotComputable(
                    "the old query's select list ("
                            + items.size()
                            + " items) does not name the"
                            + " table's "
                            + oldColumns.size()
                            + " columns one by one");
        }
        List<SqlNode> oldExpressions = new ArrayList<>();
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw new NotComputable("the old query selects *");
            }
            oldExpressions.add(withoutAlias(item));
        }
        SqlShuttle toColumns =
                new SqlShuttle() {
                    @Override
                    public SqlNode visit(SqlIdentifier id) {
                        return column(id).orElseThrow(() -> unknown(id));
                    }

                    @Override
                    public SqlNode visit(SqlCall call) {
                        Optional<SqlNode> column = column(call);
                        if (column.isPresent()) {
                            return column.get();
                        }
                        if (call.getOperator().isAggregator() || call.getKind() == SqlKind.OVER) {
                            throw unknown(call);
                        }
                        return super.visit(call);
                    }

                    private Optional<SqlNode> column(SqlNode node) {
                        for (int i = 0; i < oldExpressions.size(); i++) {
                            if (oldExpressions.get(i).equalsDeep(node, Litmus.IGNORE)) {
                                return Optional.of(
                                        new SqlIdentifier(oldColumns.get(i), SqlParserPos.ZERO));
                            }
                        }
                        return Optional.empty();
                    }

                    private NotComputable unknown(SqlNode node) {
                        return new NotComputable(
                                "the new query computes "
                                        + node.toSqlString(FlinkSyntax.DIALECT).getSql()
                                        + " from what the old query does not output");
                    }
                };
        List<SqlNode> selected = new ArrayList<>();
        for (SqlNode item : after.getSelectList().getList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw new NotComputable("the new query selects *");
            }
            SqlNode expression = withoutAlias(item).accept(toColumns);
            String name = outputName(item);
            selected.add(
                    name == null
                            ? expression
                            : as(expression, new SqlIdentifier(name, SqlParserPos.ZERO)));
        }
        SqlNode where =
                before.getHaving() == null && after.getHaving() != null
                        ? after.getHaving().accept(toColumns)
                        : null;
        return new SqlSelect(
                SqlParserPos.ZERO,
                null,
                new SqlNodeList(selected, SqlParserPos.ZERO),
                new SqlIdentifier(WRITTEN, SqlParserPos.ZERO),
                where,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /**
     * The key and partition columns of the rewritten rows are the written rows' own: each is
     * selected as the column of that name, unchanged.
     */
    private static void checkCarried(
            SqlSelect rewritten, List<String> newColumns, Collection<String> carried) {
        List<SqlNode> items = rewritten.getSelectList().getList();
        boolean star = items.size() == 1 && items.get(0) instanceof SqlIdentifier id && id.isStar();
        if (star) {
            return; // every column as written, the key among them
        }
        if (items.size() != newColumns.size()) {
            throw new NotComputable(
                    "the new query's select list does not name the table's columns one by one");
        }
        for (String column : carried) {
            int at = newColumns.indexOf(column);
            if (at < 0) {
                throw new NotComputable("the new query does not output " + column);
            }
            SqlNode expression = withoutAlias(items.get(at));
            if (!(expression instanceof SqlIdentifier id)
                    || !id.names.get(id.names.size() - 1).equals(column)) {
                throw new NotComputable(
                        "the new query computes the key or partition column "
                                + column
                                + " anew ("
                                + expression.toSqlString(FlinkSyntax.DIALECT).getSql()
                                + ")");
            }
        }
    }

    private static boolean same(SqlNode a, SqlNode b) {
        return a == null ? b == null : b != null && a.equalsDeep(b, Litmus.IGNORE);
    }

    private static boolean same(SqlNodeList a, SqlNodeList b) {
        boolean aEmpty = a == null || a.isEmpty();
        boolean bEmpty = b == null || b.isEmpty();
        return aEmpty ? bEmpty : !bEmpty && a.equalsDeep(b, Litmus.IGNORE);
    }

    private static SqlNode withoutAlias(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlBasicCall) item).operand(0) : item;
    }

    private static String outputName(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlBasicCall) item).operand(1)).getSimple();
        }
        return item instanceof SqlIdentifier id ? id.names.get(id.names.size() - 1) : null;
    }

    /** {@code expression AS name}, as Flink's parser builds it. */
    private static SqlNode as(SqlNode expression, SqlNode name) {
        return SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, expression, name);
    }

    /** The new query's rows cannot be computed from the written ones: why. */
    private static final class NotComputable extends RuntimeException {
        NotComputable(String reason) {
            super(reason, null, false, false);
        }
    }
}
