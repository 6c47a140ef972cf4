package io.mtables.jobmanager;

import io.mtables.planning.Warehouse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;

/**
 * The rows of a table's latest snapshot, read with Paimon's own API, as sorted text ("1|anna"),
 * duplicates kept.
 */
final class PaimonRows {

    private PaimonRows() {}

    /** Whether the warehouse holds the table. */
    static boolean exists(Warehouse warehouse, String table) throws Exception {
        String[] parts = table.split("\\.", 3);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            return catalog.listTables(parts[1]).contains(parts[2]);
        } catch (Catalog.DatabaseNotExistException e) {
            return false;
        }
    }

    /** Removes an option of the table, as a table created before it was set lacks it. */
    static void removeOption(Warehouse warehouse, String table, String option) throws Exception {
        String[] parts = table.split("\\.", 3);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            catalog.alterTable(
                    Identifier.create(parts[1], parts[2]),
                    SchemaChange.removeOption(option),
                    false);
        }
    }

    static List<String> read(Warehouse warehouse, String table) throws Exception {
        String[] parts = table.split("\\.", 3);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            return rows(catalog.getTable(Identifier.create(parts[1], parts[2])));
        }
    }

    /**
     * As {@link #read}, or empty when another table took the name during the read (a switch-over's
     * renames): a reader holds the schema of the table it opened, and reads the files of whatever
     * table the name names when it plans its scan, so the new table's rows could be read in the old
     * one's columns. A read whose table's columns differ after it from those it was read with is no
     * answer.
     */
    static Optional<List<String>> readUnchanged(Warehouse warehouse, String table)
            throws Exception {
        String[] parts = table.split("\\.", 3);
        Identifier identifier = Identifier.create(parts[1], parts[2]);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            Table paimon = catalog.getTable(identifier);
            List<String> rows = rows(paimon);
            boolean unchanged = catalog.getTable(identifier).rowType().equals(paimon.rowType());
            return unchanged ? Optional.of(rows) : Optional.empty();
        }
    }

    private static List<String> rows(Table paimon) throws Exception {
        List<DataField> fields = paimon.rowType().getFields();
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            getters.add(InternalRow.createFieldGetter(fields.get(i).type(), i));
        }
        ReadBuilder read = paimon.newReadBuilder();
        List<String> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                read.newRead().createReader(read.newScan().plan())) {
            reader.forEachRemaining(
                    row -> {
                        List<String> values = new ArrayList<>();
                        for (var getter : getters) {
                            values.add(String.valueOf(getter.getFieldOrNull(row)));
                        }
                        rows.add(String.join("|", values));
                    });
        }
        rows.sort(null);
        return rows;
    }
}
