package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.options.Options;

/** Paimon's own catalog over the warehouse, for reading its metadata without a Flink job. */
final class WarehouseCatalog {

    private WarehouseCatalog() {}

    static Catalog open(Warehouse warehouse) {
        return CatalogFactory.createCatalog(
                CatalogContext.create(Options.fromMap(warehouse.catalogOptions())));
    }
}
