package io.mtables.ddl.infra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SELECTs over materialized tables' rows, each query shape prepared once per set of tables (their
 * paths and columns) and then run with its literals as parameters ({@link PreparedQueries}):
 * Calcite's preparing and compiling a query to Java, and the class loading its compile does through
 * Quarkus's class loader, were 150-230 ms of every SELECT, however few its rows
 * (docs/benchmarks.md, "Reads").
 */
public final class TableQueries {

    private final int kept;
    private final Map<List<List<Object>>, PreparedQueries> bySet;

    /**
     * @param kept how many sets of tables stay prepared; the least recently used goes first
     */
    public TableQueries(int kept) {
        this.kept = kept;
        this.bySet =
                new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(
                            Map.Entry<List<List<Object>>, PreparedQueries> eldest) {
                        if (size() <= TableQueries.this.kept) {
                            return false;
                        }
                        eldest.getValue().close();
                        return true;
                    }
                };
    }

    /**
     * Runs {@code query} over {@code tables}, as {@link InMemorySql#query} would, refused past
     * {@code limits} of answer ({@code ResultTooLarge}).
     */
    public InMemorySql.QueryRows query(
            String query,
            List<InMemorySql.Table> tables,
            String what,
            String allowed,
            ReadLimits limits) {
        return preparedFor(tables).query(query, tables, what, allowed, limits);
    }

    /** For tests: the shapes prepared over each set of tables, as their tables' paths. */
    synchronized Map<List<List<String>>, List<String>> preparedShapes() {
        Map<List<List<String>>, List<String>> shapes = new LinkedHashMap<>();
        bySet.forEach(
                (key, prepared) ->
                        shapes.put(
                                key.stream().map(table -> (List<String>) table.get(0)).toList(),
                                prepared.preparedShapes()));
        return shapes;
    }

    private synchronized PreparedQueries preparedFor(List<InMemorySql.Table> tables) {
        List<List<Object>> key =
                tables.stream()
                        .map(table -> List.<Object>of(table.path(), table.columns()))
                        .toList();
        return bySet.computeIfAbsent(
                key,
                shapes ->
                        new PreparedQueries(
                                tables.stream()
                                        .map(
                                                table ->
                                                        new InMemorySql.Table(
                                                                table.path(),
                                                                table.columns(),
                                                                List.of()))
                                        .toList()));
    }
}
