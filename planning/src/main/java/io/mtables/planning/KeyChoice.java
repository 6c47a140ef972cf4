package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The key a table is written on. A declared PRIMARY KEY always is; otherwise a CONTINUOUS table
 * whose query produces updates takes the smallest key Flink's planner derives from the query (its
 * GROUP BY, or the keys of joined sources that survive the join) whose columns are NOT NULL. When
 * every derived key can hold NULL (GROUP BY a nullable column, an outer join) or is empty (a global
 * aggregate), the table is keyed on a synthetic column encoding it ({@link SyntheticKey}); so is a
 * UNION ALL whose branches each have a key, on the branch's number and that key.
 */
final class KeyChoice {

    private KeyChoice() {}

    /** The key, with its reason added; null when the table is written without one. */
    static UpsertKey choose(
            TableDefinition table, Mode mode, QueryAnalysis query, List<String> reasons) {
        if (!table.primaryKey().isEmpty()) {
            reasons.add(
                    "Upsert on ("
                            + String.join(", ", table.primaryKey())
                            + "), the declared primary key.");
            return new UpsertKey(table.primaryKey(), UpsertKey.Origin.DECLARED);
        }
        if (mode != Mode.CONTINUOUS || !query.updating()) {
            return null;
        }
        List<List<String>> derived = query.uniqueKeys() == null ? List.of() : query.uniqueKeys();
        if (derived.isEmpty() && query.branchKeys() != null) {
            return unionKey(table, query.branchKeys(), reasons);
        }
        if (derived.isEmpty()) {
            reasons.add(
                    "Flink's planner derives no key from the query"
                            + (query.uniqueKeys() == null ? " (it could not be asked)" : "")
                            + ".");
            return null;
        }
        // A key of NOT NULL columns is stored as it is; Paimon refuses NULL in a key column.
        for (List<String> key : derived) {
            if (!key.isEmpty() && nullable(table, key).isEmpty()) {
                reasons.add(
                        "Upsert on ("
                                + String.join(", ", key)
                                + "), the key Flink's planner derives from the query"
                                + (derived.size() > 1
                                        ? " (smallest"
                                                + (key == derived.get(0) ? "" : " NOT NULL one")
                                                + " of "
                                                + derived.size()
                                                + " keys; declare PRIMARY KEY to choose another)"
                                        : "")
                                + ".");
                return new UpsertKey(key, UpsertKey.Origin.DERIVED);
            }
        }
        List<String> key = derived.get(0);
        if (key.isEmpty()) {
            List<String> emptyRow = query.emptyInputRow();
            reasons.add(
                    "Upsert on "
                            + SyntheticKey.COLUMN
                            + ", a synthetic key: the query has at most one row (Flink's planner"
                            + " derives the empty key), and a stored key needs a column. It holds"
                            + " one constant value and is hidden from SELECT *."
                            + (emptyRow == null
                                    ? ""
                                    : emptyRow.isEmpty()
                                            ? " Over no rows the query answers no row (its HAVING"
                                                    + " fails), and neither has the table."
                                            : " While the query reads no rows (none yet, or all"
                                                    + " deleted) the table holds the row a batch"
                                                    + " query answers then: ("
                                                    + String.join(
                                                            ", ",
                                                            emptyRow.stream()
                                                                    .map(
                                                                            value ->
                                                                                    value == null
                                                                                            ? "NULL"
                                                                                            : value)
                                                                    .toList())
                                                    + ")."));
            return new UpsertKey(key, UpsertKey.Origin.SYNTHETIC, null, emptyRow);
        } else {
            reasons.add(
                    "Upsert on "
                            + SyntheticKey.COLUMN
                            + ", a NULL-safe encoding of ("
                            + String.join(", ", key)
                            + "): Flink's planner derives"
                            + " that key, and "
                            + String.join(", ", nullable(table, key))
                            + " can be NULL, which a stored key column cannot."
                            + " The job computes it; it is hidden from SELECT *.");
        }
        return new UpsertKey(key, UpsertKey.Origin.SYNTHETIC);
    }

    /**
     * A UNION ALL has no key of its own, but when each branch has one, the branch's number and its
     * key tell every row apart.
     */
    private static UpsertKey unionKey(
            TableDefinition table, List<List<String>> branchKeys, List<String> reasons) {
        List<String> described = new ArrayList<>();
        for (int branch = 1; branch <= branchKeys.size(); branch++) {
            List<String> key = branchKeys.get(branch - 1);
            if (key == null) {
                reasons.add(
                        "Flink's planner derives no key from the query: it is a UNION ALL, and its"
                                + " branch "
                                + branch
                                + " of "
                                + branchKeys.size()
                                + " has no key of its own to tell its rows apart.");
                return null;
            }
            described.add(branch + " on (" + String.join(", ", key) + ")");
        }
        List<String> columns =
                table.columns().stream()
                        .map(TableDefinition.Column::name)
                        .filter(c -> branchKeys.stream().anyMatch(key -> key.contains(c)))
                        .toList();
        reasons.add(
                "Upsert on "
                        + SyntheticKey.COLUMN
                        + ", a synthetic key: the query is a UNION ALL, which has no key, but each"
                        + " branch has one; the key encodes the branch's number and its key (branch"
                        + " "
                        + String.join(", branch ", described)
                        + "). The job computes it; it is hidden from SELECT *.");
        return new UpsertKey(columns, UpsertKey.Origin.SYNTHETIC, branchKeys);
    }

    /** The columns of {@code key} the table's derived schema says can be NULL. */
    private static List<String> nullable(TableDefinition table, List<String> key) {
        return table.columns().stream()
                .filter(c -> c.nullable() && key.contains(c.name()))
                .map(TableDefinition.Column::name)
                .toList();
    }

    /** Whether Flink proves the declared key unique: some derived key is part of it. */
    static boolean provenUnique(List<String> declared, QueryAnalysis query) {
        return query.uniqueKeys() != null
                && query.uniqueKeys().stream().anyMatch(declared::containsAll);
    }
}
