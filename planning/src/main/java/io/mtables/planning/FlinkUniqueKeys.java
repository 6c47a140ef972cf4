package io.mtables.planning;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.api.Table;

/**
 * The unique keys Flink's planner derives for a query's result (its metadata query getUniqueKeys,
 * with Flink's handlers: GROUP BY columns, source primary keys, and the keys of a joined side when
 * the join key is unique on the other side). Flink's stricter upsert keys are not used: they also
 * require rows to arrive ordered by the key, which Flink ensures itself with an upsert materializer
 * when they do not. Flink has no public API for them, and flink-table-planner-loader hides the
 * planner's classes in a class loader of their own, so the calls go through reflection; pinned
 * Flink version 2.2.1, checked by FlinkQueryAnalyzerTest. Must run on the thread that created the
 * TableEnvironment.
 */
final class FlinkUniqueKeys {

    private FlinkUniqueKeys() {}

    /**
     * The keys of {@code query}'s result as column names, smallest first (the empty key when it has
     * at most one row); null when the planner could not be asked (then no key is derived, and the
     * rules say so).
     */
    static List<List<String>> of(Table query) {
        List<String> columns = query.getResolvedSchema().getColumnNames();
        try {
            Object operation = query.getQueryOperation();
            Object rel = operation.getClass().getMethod("getCalciteTree").invoke(operation);
            ClassLoader planner = rel.getClass().getClassLoader();
            Class<?> relNode = Class.forName("org.apache.calcite.rel.RelNode", true, planner);
            Class<?> relMetadataQuery =
                    Class.forName(
                            "org.apache.calcite.rel.metadata.RelMetadataQuery", true, planner);
            Object cluster = relNode.getMethod("getCluster").invoke(rel);
            Object metadata = cluster.getClass().getMethod("getMetadataQuery").invoke(cluster);
            Set<?> keys =
                    (Set<?>)
                            relMetadataQuery
                                    .getMethod("getUniqueKeys", relNode)
                                    .invoke(metadata, rel);
            // A result of at most one row (a global aggregate, also behind a projection such as
            // SUM(a) / SUM(b), where Flink's key handlers lose its empty key) is keyed by nothing.
            Double maxRows =
                    (Double)
                            relMetadataQuery
                                    .getMethod("getMaxRowCount", relNode)
                                    .invoke(metadata, rel);
            if (maxRows != null && maxRows <= 1) {
                return List.of(List.of());
            }
            if (keys == null) {
                return null;
            }
            List<List<String>> named = new ArrayList<>();
            for (Object bits : keys) {
                Method toList = bits.getClass().getMethod("toList");
                List<String> key = new ArrayList<>();
                for (Object index : (List<?>) toList.invoke(bits)) {
                    key.add(columns.get((Integer) index));
                }
                named.add(
                        List.copyOf(
                                key)); // empty: the result has at most one row (a global aggregate)
            }
            // Only minimal keys: (user_id, domain_id) says nothing that (domain_id) does not.
            List<List<String>> all = List.copyOf(named);
            named.removeIf(
                    key ->
                            all.stream()
                                    .anyMatch(
                                            other ->
                                                    other.size() < key.size()
                                                            && key.containsAll(other)));
            named.sort(
                    Comparator.<List<String>>comparingInt(List::size)
                            .thenComparing(
                                    key -> key.isEmpty() ? -1 : columns.indexOf(key.get(0))));
            return List.copyOf(named);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
