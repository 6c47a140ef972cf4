package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.manifest.FileKind;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.utils.InternalRowPartitionComputer;

/**
 * A table's partitions from Paimon's own metadata (manifests, nothing scanned): which ones a range
 * of snapshots wrote and how many rows, which ones hold rows, and emptying some. The one write the
 * job manager makes itself, between refresh jobs of the table (one at a time), never beside one.
 */
public class PaimonPartitions implements AutoCloseable {

    private final Catalog catalog;

    public PaimonPartitions(Warehouse warehouse) {
        this.catalog = WarehouseCatalog.open(warehouse);
    }

    /**
     * The partitions (column to value, as Paimon names them; NULL is Paimon's default partition
     * name) that the snapshots after {@code afterId} up to {@code upToId} wrote, compactions left
     * out; empty when one of them is no longer kept (expired), so the change cannot be known.
     */
    public Optional<Set<Map<String, String>>> written(String table, long afterId, long upToId) {
        FileStoreTable paimon = table(table);
        InternalRowPartitionComputer names = names(paimon);
        // Each file a snapshot added or removed names its partition: an overwrite that replaced a
        // partition's file with one of as many rows nets out in Paimon's partition entries, and one
        // that only removed files yields no split to read; the manifest entries have both.
        return changes(paimon, afterId, upToId)
                .map(
                        entries -> {
                            Set<Map<String, String>> written = new LinkedHashSet<>();
                            entries.forEach(
                                    entry ->
                                            written.add(
                                                    Map.copyOf(
                                                            names.generatePartValues(
                                                                    entry.partition()))));
                            return written;
                        });
    }

    /**
     * The rows the snapshots after {@code afterId} up to {@code upToId} wrote (the rows of the
     * files they added; an overwrite's net change can be negative, this cannot), compactions left
     * out.
     */
    public long rowsWritten(String table, long afterId, long upToId) {
        return changes(table(table), afterId, upToId).orElse(List.of()).stream()
                .filter(e -> e.kind() == FileKind.ADD)
                .mapToLong(e -> e.file().rowCount())
                .sum();
    }

    /**
     * The files the snapshots after {@code afterId} up to {@code upToId} added and removed (their
     * delta manifests), compactions left out (files rewritten, rows unchanged); empty when one of
     * them is no longer kept.
     */
    private static Optional<List<ManifestEntry>> changes(
            FileStoreTable paimon, long afterId, long upToId) {
        var snapshots = paimon.snapshotManager();
        List<ManifestEntry> entries = new ArrayList<>();
        for (long id = afterId + 1; id <= upToId; id++) {
            if (!snapshots.snapshotExists(id)) {
                return Optional.empty();
            }
            Snapshot snapshot = snapshots.snapshot(id);
            if (snapshot.commitKind() != Snapshot.CommitKind.COMPACT) {
                entries.addAll(
                        paimon.store()
                                .newScan()
                                .withSnapshot(snapshot)
                                .withKind(ScanMode.DELTA)
                                .plan()
                                .files());
            }
        }
        return Optional.of(entries);
    }

    /** The partitions that hold rows in the table's latest snapshot. */
    public Set<Map<String, String>> present(String table) {
        FileStoreTable paimon = table(table);
        InternalRowPartitionComputer names = names(paimon);
        Set<Map<String, String>> present = new LinkedHashSet<>();
        for (BinaryRow partition : paimon.newSnapshotReader().partitions()) {
            present.add(Map.copyOf(names.generatePartValues(partition)));
        }
        return present;
    }

    /** Empties {@code partitions} of the table in one commit. */
    public void empty(String table, List<Map<String, String>> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        try (BatchTableCommit commit = table(table).newBatchWriteBuilder().newCommit()) {
            commit.truncatePartitions(new ArrayList<>(partitions));
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot empty the partitions "
                            + partitions
                            + " of "
                            + table
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Paimon's value for a NULL partition column, which no SQL literal names. */
    public String nullPartitionName(String table) {
        return table(table).coreOptions().partitionDefaultName();
    }

    private FileStoreTable table(String table) {
        TableId id = TableId.of(table);
        try {
            return (FileStoreTable) catalog.getTable(Identifier.create(id.database(), id.name()));
        } catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException(table + " is not in the warehouse", e);
        }
    }

    private static InternalRowPartitionComputer names(FileStoreTable paimon) {
        return new InternalRowPartitionComputer(
                paimon.coreOptions().partitionDefaultName(), paimon.schema().logicalPartitionType(),
                paimon.partitionKeys().toArray(String[]::new),
                        paimon.coreOptions().legacyPartitionName());
    }

    @Override
    public void close() {
        try {
            catalog.close();
        } catch (Exception e) {
            // closing a file-system catalog releases nothing that matters
        }
    }
}
