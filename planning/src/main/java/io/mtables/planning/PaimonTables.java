package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Paimon table a materialized table is stored in, as Flink SQL: the job manager creates it in
 * the warehouse, and the planner creates one of the same shape to plan queries that read it.
 */
public final class PaimonTables {

    private PaimonTables() {}

    /**
     * {@code CREATE TABLE IF NOT EXISTS} for a materialized table's Paimon table.
     *
     * @param name the quoted name in a Paimon catalog
     * @param key the primary key ({@link #primaryKey}); empty for an append table. A key holding
     *     {@link SyntheticKey#COLUMN} adds that column last
     * @param options the table options; a keyed table keeps its input changelog unless told
     *     otherwise
     */
    public static String createTable(
            String name,
            List<Column> columns,
            List<String> partitionKeys,
            List<String> key,
            Map<String, String> options) {
        List<String> lines = new ArrayList<>();
        for (Column column : columns) {
            lines.add(
                    "  "
                            + quote(column.name())
                            + " "
                            + column.type()
                            + (column.nullable() && !key.contains(column.name())
                                    ? ""
                                    : " NOT NULL"));
        }
        if (key.contains(SyntheticKey.COLUMN)) {
            lines.add("  " + quote(SyntheticKey.COLUMN) + " STRING NOT NULL");
        }
        if (!key.isEmpty()) {
            lines.add("  PRIMARY KEY (" + quoteAll(key) + ") NOT ENFORCED");
        }
        StringBuilder sql =
                new StringBuilder(
                        "CREATE TABLE IF NOT EXISTS "
                                + name
                                + " (\n"
                                + String.join(",\n", lines)
                                + "\n)");
        if (!partitionKeys.isEmpty()) {
            sql.append(" PARTITIONED BY (").append(quoteAll(partitionKeys)).append(")");
        }
        Map<String, String> all = new TreeMap<>(options);
        if (!key.isEmpty()) {
            // The writer's input is Flink's full changelog: keep it, so tables reading this one get
            // it.
            all.putIfAbsent("changelog-producer", "input");
        }
        if (!all.isEmpty()) {
            List<String> pairs = new ArrayList<>();
            all.forEach((k, v) -> pairs.add(literal(k) + " = " + literal(v)));
            sql.append(" WITH (").append(String.join(", ", pairs)).append(")");
        }
        return sql.toString();
    }

    /**
     * The Paimon primary key: the plan's key ({@link SyntheticKey#COLUMN} for a synthetic one) and
     * the partition columns (Paimon requires them); empty for an append table.
     */
    public static List<String> primaryKey(RefreshPlan plan, List<String> partitionKeys) {
        if (plan.upsertKey() == null) {
            return List.of();
        }
        Set<String> key =
                new LinkedHashSet<>(
                        plan.upsertKey().origin() == RefreshPlan.UpsertKey.Origin.SYNTHETIC
                                ? List.of(SyntheticKey.COLUMN)
                                : plan.upsertKey().columns());
        key.addAll(partitionKeys);
        return List.copyOf(key);
    }

    public static String quote(String identifier) {
        return TableId.quote(identifier);
    }

    public static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static String quoteAll(List<String> identifiers) {
        return String.join(", ", identifiers.stream().map(PaimonTables::quote).toList());
    }
}
