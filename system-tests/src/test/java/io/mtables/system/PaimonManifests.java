package io.mtables.system;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.utils.InternalRowPartitionComputer;

/** What Paimon's own manifests say a table's snapshots wrote, read straight from the warehouse. */
final class PaimonManifests {

    private PaimonManifests() {}

    /** The id of the table's newest snapshot, straight from the warehouse (0 when it has none). */
    static long latestSnapshotId(Path warehouse, String table) throws Exception {
        try (Catalog catalog = catalog(warehouse)) {
            Long latest = table(catalog, table).snapshotManager().latestSnapshotId();
            return latest == null ? 0 : latest;
        }
    }

    /**
     * The partitions whose files the snapshots after {@code afterId} up to {@code upToId} added or
     * removed.
     */
    static Set<Map<String, String>> partitionsWritten(
            Path warehouse, String table, long afterId, long upToId) throws Exception {
        try (Catalog catalog = catalog(warehouse)) {
            FileStoreTable paimon = table(catalog, table);
            InternalRowPartitionComputer names =
                    new InternalRowPartitionComputer(
                            paimon.coreOptions().partitionDefaultName(),
                                    paimon.schema().logicalPartitionType(),
                            paimon.partitionKeys().toArray(String[]::new),
                                    paimon.coreOptions().legacyPartitionName());
            Set<Map<String, String>> written = new LinkedHashSet<>();
            for (long id = afterId + 1; id <= upToId; id++) {
                for (ManifestEntry entry :
                        paimon.store()
                                .newScan()
                                .withSnapshot(id)
                                .withKind(ScanMode.DELTA)
                                .plan()
                                .files()) {
                    written.add(Map.copyOf(names.generatePartValues(entry.partition())));
                }
            }
            return written;
        }
    }

    private static Catalog catalog(Path warehouse) {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    private static FileStoreTable table(Catalog catalog, String table) throws Exception {
        String[] parts = table.split("\\.", 3);
        return (FileStoreTable) catalog.getTable(Identifier.create(parts[1], parts[2]));
    }
}
