package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.jboss.logging.Logger;

/**
 * A new query's columns appended to the Paimon table its old query wrote, so the table keeps its
 * rows: allowed only when the table's key and its columns so far are the new query's first ones.
 */
final class ColumnAppends {

    private static final Logger LOG = Logger.getLogger(ColumnAppends.class);

    private ColumnAppends() {}

    /**
     * Appends the columns the new query adds to the table (NULL in the rows there), when the
     * table's key and columns so far are the new ones too. The columns the table had before, or
     * empty when it cannot be evolved so.
     */
    static Optional<List<String>> append(
            TableEnvironment env,
            Catalog catalog,
            ObjectPath path,
            TableDefinition definition,
            RefreshPlan plan) {
        Schema existing;
        try {
            existing = catalog.getTable(path).getUnresolvedSchema();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read the Paimon table of " + definition.table(), e);
        }
        List<String> key = JobSql.primaryKey(definition, plan);
        List<String> keyNow =
                existing.getPrimaryKey()
                        .map(Schema.UnresolvedPrimaryKey::getColumnNames)
                        .orElse(List.of());
        List<String> columnsNow =
                existing.getColumns().stream()
                        .map(Schema.UnresolvedColumn::getName)
                        .filter(name -> !name.equals(SyntheticKey.COLUMN))
                        .toList();
        List<String> columns =
                definition.columns().stream().map(TableDefinition.Column::name).toList();
        boolean syntheticNow = columnsNow.size() < existing.getColumns().size();
        if (!new HashSet<>(key).equals(new HashSet<>(keyNow))
                || syntheticNow != key.contains(SyntheticKey.COLUMN)
                || columns.size() < columnsNow.size()
                || !columns.subList(0, columnsNow.size()).equals(columnsNow)) {
            return Optional.empty();
        }
        List<String> added = new ArrayList<>();
        String after = columnsNow.isEmpty() ? null : columnsNow.get(columnsNow.size() - 1);
        for (TableDefinition.Column column :
                definition.columns().subList(columnsNow.size(), columns.size())) {
            added.add(
                    TableId.quote(column.name())
                            + " "
                            + column.type()
                            + (after == null ? " FIRST" : " AFTER " + TableId.quote(after)));
            after = column.name();
        }
        if (!added.isEmpty()) {
            env.executeSql(
                    "ALTER TABLE "
                            + JobSql.paimonName(definition.table())
                            + " ADD ("
                            + String.join(", ", added)
                            + ")");
            LOG.infof("%s: columns added for its new query: %s", definition.table(), added);
        }
        return Optional.of(columnsNow);
    }
}
