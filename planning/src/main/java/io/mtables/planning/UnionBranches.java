package io.mtables.planning;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * The branches of a query whose top is a UNION ALL ({@code a UNION ALL b UNION ALL c} has three),
 * each as Flink SQL, so that each can be keyed on its own: UNION ALL has no key of its own, but a
 * branch number and the branch's key tell every row apart. Flink's parser gives the syntax tree;
 * each branch is written back the way Flink writes an expanded query (backquoted identifiers).
 */
public final class UnionBranches {

    private UnionBranches() {}

    /** The branches of {@code query} in order, when its top is a UNION ALL; else empty. */
    public static List<String> of(String query) {
        SqlNode root;
        try {
            root = SqlParser.create(query, FlinkSyntax.PARSER).parseQuery();
        } catch (SqlParseException e) {
            return List.of();
        }
        if (!isUnionAll(root)) {
            return List.of();
        }
        List<SqlNode> branches = new ArrayList<>();
        flatten(root, branches);
        return branches.stream()
                .map(branch -> branch.toSqlString(FlinkSyntax.DIALECT).getSql())
                .toList();
    }

    private static void flatten(SqlNode node, List<SqlNode> branches) {
        if (isUnionAll(node)) {
            for (SqlNode operand : ((SqlBasicCall) node).getOperandList()) {
                flatten(operand, branches);
            }
        } else {
            branches.add(node);
        }
    }

    private static boolean isUnionAll(SqlNode node) {
        return node instanceof SqlBasicCall call
                && call.getKind() == SqlKind.UNION
                && call.getOperator() instanceof SqlSetOperator union
                && union.isAll();
    }
}
