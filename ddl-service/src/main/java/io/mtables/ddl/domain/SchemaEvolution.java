package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import java.util.List;
import java.util.Objects;

/**
 * What a new version of a materialized table may change so that the rows already stored stay valid
 * (seed 001: only nullable columns appended at the end).
 */
public final class SchemaEvolution {

    private SchemaEvolution() {}

    /**
     * Keys, partitions and distribution stay; columns may only be appended, and must be nullable.
     */
    public static void check(TableDefinition current, TableDefinition next) {
        unchanged("primary key", current.primaryKey(), next.primaryKey());
        unchanged("PARTITIONED BY", current.partitionKeys(), next.partitionKeys());
        unchanged("DISTRIBUTED BY", current.distribution(), next.distribution());
        List<Column> before = current.columns();
        List<Column> after = next.columns();
        for (int i = 0; i < before.size(); i++) {
            Column was = before.get(i);
            if (i >= after.size()) {
                throw evolution(
                        "Column '" + was.name() + "' (position " + (i + 1) + ") would be removed.");
            }
            Column now = after.get(i);
            if (!now.equals(was)) {
                throw evolution(
                        "Column "
                                + (i + 1)
                                + " would change from '"
                                + was.name()
                                + "' "
                                + describe(was)
                                + " to '"
                                + now.name()
                                + "' "
                                + describe(now)
                                + ".");
            }
        }
        for (int i = before.size(); i < after.size(); i++) {
            if (!after.get(i).nullable()) {
                throw evolution(
                        "Added column '"
                                + after.get(i).name()
                                + "' is NOT NULL; columns appended to a materialized table must be"
                                + " nullable.");
            }
        }
    }

    private static StatementException evolution(String message) {
        return StatementException.invalid(
                "IncompatibleSchemaChange",
                message + " Existing rows cannot be kept under the new schema.",
                "the same columns in the same order with the same types, then new nullable columns"
                        + " at the end; or DROP and CREATE");
    }

    private static void unchanged(String what, Object before, Object after) {
        if (!Objects.equals(before, after)) {
            throw StatementException.invalid(
                    "IncompatibleSchemaChange",
                    "The " + what + " would change from " + before + " to " + after + ".",
                    "the same " + what + "; or DROP and CREATE");
        }
    }

    private static String describe(Column column) {
        return column.type() + (column.nullable() ? "" : " NOT NULL");
    }
}
