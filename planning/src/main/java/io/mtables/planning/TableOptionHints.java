package io.mtables.planning;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlTableRef;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The {@code /*+ OPTIONS(...) *}{@code /} hints on the tables a query reads. Flink merges such a
 * hint into the table's options when the job runs (dynamic table options), so a hint in a user's
 * query would set a source's options past {@link SourceConnectors} (another broker, a file) and a
 * materialized table's past the options ddl-service allows. Users' queries carry none; the job
 * manager adds its own ({@code scan.snapshot-id}, {@code dynamic-partition-overwrite}) to the
 * statements it submits, never to a stored query.
 */
public final class TableOptionHints {

    private TableOptionHints() {}

    /** Every OPTIONS hint in {@code query}, in the order they are written. */
    public static List<SqlHint> in(SqlNode query) {
        List<SqlHint> found = new ArrayList<>();
        query.accept(
                new SqlBasicVisitor<Void>() {
                    @Override
                    public Void visit(SqlCall call) {
                        // A table reference's operands: the table, then its hints.
                        if (call instanceof SqlTableRef ref
                                && ref.getOperandList().get(1) instanceof SqlNodeList hints) {
                            for (SqlNode node : hints) {
                                if (node instanceof SqlHint hint
                                        && hint.getName().equalsIgnoreCase("OPTIONS")) {
                                    found.add(hint);
                                }
                            }
                        }
                        return super.visit(call);
                    }
                });
        return found;
    }
}
