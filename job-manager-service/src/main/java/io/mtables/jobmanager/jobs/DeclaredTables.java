package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.TableId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * The options of a table declared in a job's environment: read, and set before the job is built.
 */
final class DeclaredTables {

    private DeclaredTables() {}

    /** The options {@code table} was declared with in {@code env}. */
    static Map<String, String> options(TableEnvironment env, TableId table) {
        try {
            return env.getCatalog(table.catalog())
                    .orElseThrow()
                    .getTable(new ObjectPath(table.database(), table.name()))
                    .getOptions();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the options of " + table, e);
        }
    }

    /** Sets {@code options} on {@code table} ({@code ALTER TABLE ... SET}); none: nothing. */
    static void set(TableEnvironment env, TableId table, Map<String, String> options) {
        if (options.isEmpty()) {
            return;
        }
        List<String> pairs =
                new TreeMap<>(options)
                        .entrySet().stream()
                                .map(
                                        e ->
                                                JobSql.literal(e.getKey())
                                                        + " = "
                                                        + JobSql.literal(e.getValue()))
                                .toList();
        env.executeSql("ALTER TABLE " + table.quoted() + " SET (" + String.join(", ", pairs) + ")");
    }
}
