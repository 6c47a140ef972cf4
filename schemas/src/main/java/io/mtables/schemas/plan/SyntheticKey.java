package io.mtables.schemas.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The stored key of a table whose natural key can hold NULLs (GROUP BY a nullable column, the
 * missing side of an outer join) or is empty (a global aggregate: at most one row). Paimon's
 * primary-key columns must be NOT NULL, so such a table is keyed on one extra column, {@value
 * #COLUMN}, whose value encodes the natural key without losing NULL: for each key column in order,
 * {@code ~} for NULL, else the length of its text, a colon and the text ({@code CAST(c AS
 * STRING)}); the parts are concatenated. (NULL, 'ab') is {@code ~2:ab}; ('', NULL) is {@code 0:~};
 * no key columns give the empty string. A length starts with a digit, so no two keys share an
 * encoding. A UNION ALL's rows are keyed on their branch's number followed by that branch's key
 * ({@link #branchExpression}). The job computes it (Flink SQL, {@link #expression}); readers
 * through the front door never see the column.
 */
public final class SyntheticKey {

    /** The stored key column's name: hidden from SELECT * and DESCRIBE's columns. */
    public static final String COLUMN = "__mt_key";

    private SyntheticKey() {}

    /**
     * The Flink SQL expression of the key over {@code columns} of the relation named {@code alias}.
     *
     * @param columns the natural key columns (may be empty)
     * @param alias the quoted alias of the query whose columns these are, such as {@code `q`}
     */
    public static String expression(List<String> columns, String alias) {
        if (columns.isEmpty()) {
            return "''";
        }
        List<String> parts = new ArrayList<>();
        for (String column : columns) {
            String ref = alias + ".`" + column.replace("`", "``") + "`";
            String text = "CAST(" + ref + " AS STRING)";
            parts.add(
                    "IF("
                            + ref
                            + " IS NULL, '~', CONCAT(CAST(CHAR_LENGTH("
                            + text
                            + ") AS STRING), ':', "
                            + text
                            + "))");
        }
        return parts.size() == 1 ? parts.get(0) : "CONCAT(" + String.join(", ", parts) + ")";
    }

    /**
     * The key of a row of branch {@code branch} (from 1) of a UNION ALL: the branch's number as
     * text, then its own key, in the same encoding; branch 2 keyed on (7) is {@code 1:21:7}.
     */
    public static String branchExpression(int branch, List<String> columns, String alias) {
        return "CONCAT('"
                + encode(List.of(String.valueOf(branch)))
                + "', "
                + expression(columns, alias)
                + ")";
    }

    /** The same encoding in Java, for tests and tools that key rows the way the job does. */
    public static String encode(List<String> values) {
        StringBuilder key = new StringBuilder();
        for (String value : values) {
            key.append(value == null ? "~" : value.length() + ":" + value);
        }
        return key.toString();
    }
}
