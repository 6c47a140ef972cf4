package io.mtables.ddl.recording;

import io.mtables.planning.Warehouse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.Table;

/**
 * The Paimon tables ddl-service records in {@code mt_system} (the refresh history, the audit
 * trail): a catalog of the warehouse, and each table kept open for reads.
 */
public final class SystemTables {

    /**
     * Each table read, by warehouse, kept open: loading it (its schema from the file system) was an
     * eighth of a read of the refresh history. Each read still plans its scan on the latest
     * snapshot.
     */
    private static final Map<Key, Table> OPENED = new ConcurrentHashMap<>();

    private record Key(Warehouse warehouse, Identifier table) {}

    private SystemTables() {}

    public static Catalog catalog(Warehouse warehouse) {
        return CatalogFactory.createCatalog(
                CatalogContext.create(Options.fromMap(warehouse.catalogOptions())));
    }

    /**
     * The table, from a catalog kept open with it (opened once, whoever reads first); null when
     * nothing was recorded yet, and then looked for again at the next read.
     */
    public static Table opened(Warehouse warehouse, Identifier table) {
        return OPENED.computeIfAbsent(
                new Key(warehouse, table),
                key -> {
                    Catalog catalog = catalog(key.warehouse());
                    try {
                        return catalog.getTable(key.table());
                    } catch (Catalog.TableNotExistException e) {
                        closeQuietly(catalog);
                        return null; // computeIfAbsent keeps nothing for null
                    }
                });
    }

    private static void closeQuietly(Catalog catalog) {
        try {
            catalog.close();
        } catch (Exception e) {
            // a file-system catalog holds nothing that closing releases
        }
    }
}
