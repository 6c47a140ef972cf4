package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableId;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.CachingCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.FileStoreTable;

/**
 * Reads the latest snapshot of a table straight from the warehouse with Paimon's own API: what was
 * committed, when, and how many rows; no Flink job needed.
 */
public class PaimonSnapshots implements AutoCloseable {

    private final Catalog catalog;

    public PaimonSnapshots(Warehouse warehouse) {
        this.catalog = WarehouseCatalog.open(warehouse);
    }

    /**
     * A committed snapshot.
     *
     * @param id Paimon's snapshot id
     * @param committedAt the commit time
     * @param rowsAdded the rows this snapshot wrote (delta record count)
     * @param totalRows the rows the table holds after it
     * @param kind APPEND, COMPACT, OVERWRITE or ANALYZE
     * @param commitIdentifier what the writer committed it as: a streaming job's checkpoint id
     */
    public record CommittedSnapshot(
            long id,
            Instant committedAt,
            long rowsAdded,
            long totalRows,
            String kind,
            long commitIdentifier) {}

    /** The table's latest snapshot; empty when the table has none or does not exist. */
    public Optional<CommittedSnapshot> latest(String table) {
        TableId id = TableId.of(table);
        try {
            FileStoreTable paimon =
                    (FileStoreTable) catalog.getTable(Identifier.create(id.database(), id.name()));
            Snapshot snapshot = paimon.snapshotManager().latestSnapshot();
            if (snapshot == null) {
                return Optional.empty();
            }
            return Optional.of(
                    new CommittedSnapshot(
                            snapshot.id(),
                            Instant.ofEpochMilli(snapshot.timeMillis()),
                            snapshot.deltaRecordCount() == null ? 0 : snapshot.deltaRecordCount(),
                            snapshot.totalRecordCount() == null ? 0 : snapshot.totalRecordCount(),
                            snapshot.commitKind().name(),
                            snapshot.commitIdentifier()));
        } catch (Catalog.TableNotExistException e) {
            return Optional.empty();
        }
    }

    /**
     * The records in the table's files at {@code snapshotId} (Paimon's total record count: for a
     * table with a primary key, rows not yet merged by a compaction count more than once); empty
     * when the snapshot or the table is gone, or does not say.
     */
    public OptionalLong totalRecords(String table, long snapshotId) {
        TableId id = TableId.of(table);
        try {
            FileStoreTable paimon =
                    (FileStoreTable) catalog.getTable(Identifier.create(id.database(), id.name()));
            var manager = paimon.snapshotManager();
            if (!manager.snapshotExists(snapshotId)) {
                return OptionalLong.empty();
            }
            Long records = manager.snapshot(snapshotId).totalRecordCount();
            return records == null ? OptionalLong.empty() : OptionalLong.of(records);
        } catch (Catalog.TableNotExistException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Where an input of a refresh stands.
     *
     * @param latest the latest snapshot, which the refresh reads
     * @param dataId the newest snapshot that changed the table's rows: a compaction rewrites files,
     *     not rows, so a table compacted since a refresh has not changed for it
     */
    public record InputSnapshot(long latest, long dataId) {}

    /**
     * Where {@code table} stands as an input; empty when it has no snapshot yet or does not exist.
     */
    public Optional<InputSnapshot> input(String table) {
        TableId id = TableId.of(table);
        try {
            FileStoreTable paimon =
                    (FileStoreTable) catalog.getTable(Identifier.create(id.database(), id.name()));
            var manager = paimon.snapshotManager();
            Snapshot latest = manager.latestSnapshot();
            if (latest == null) {
                return Optional.empty();
            }
            long earliest =
                    manager.earliestSnapshotId() == null
                            ? latest.id()
                            : manager.earliestSnapshotId();
            Snapshot data = latest;
            // Back over compactions only; an expired snapshot ends the walk at the oldest one kept.
            while (data.commitKind() == Snapshot.CommitKind.COMPACT
                    && data.id() > earliest
                    && manager.snapshotExists(data.id() - 1)) {
                data = manager.snapshot(data.id() - 1);
            }
            return Optional.of(new InputSnapshot(latest.id(), data.id()));
        } catch (Catalog.TableNotExistException e) {
            return Optional.empty();
        }
    }

    /**
     * Where the table stands with a savepoint of the streaming job writing it, taken with the job
     * going on: Paimon commits what the savepoint holds with the job's next checkpoint, under the
     * savepoint's id, each checkpoint's files in a snapshot of their own and in the order of their
     * ids (an id without files in no snapshot).
     *
     * @param snapshotId the newest snapshot committed under the savepoint's id or before it (0:
     *     none): the rows the savepoint's state wrote
     * @param confirmed whether a snapshot under the savepoint's id or a later one shows it (else
     *     the savepoint's own files may still be on their way)
     */
    public record SavedSnapshot(long snapshotId, boolean confirmed) {}

    /**
     * The snapshot of {@code table} that holds what the savepoint {@code savepointId} of the only
     * job writing it holds.
     *
     * @param before the table's latest snapshot when the savepoint was asked for (0: none)
     */
    public SavedSnapshot savedBy(String table, long before, long savepointId) {
        TableId id = TableId.of(table);
        try {
            var manager =
                    ((FileStoreTable) catalog.getTable(Identifier.create(id.database(), id.name())))
                            .snapshotManager();
            Long latest = manager.latestSnapshotId();
            long saved = before;
            boolean confirmed = false;
            for (long snapshot = before + 1; latest != null && snapshot <= latest; snapshot++) {
                long identifier = manager.snapshot(snapshot).commitIdentifier();
                if (identifier <= savepointId) {
                    saved = snapshot;
                }
                confirmed |= identifier >= savepointId;
            }
            return new SavedSnapshot(saved, confirmed);
        } catch (Catalog.TableNotExistException e) {
            throw new IllegalStateException("the Paimon table of " + table + " is gone", e);
        }
    }

    /**
     * Forgets what Paimon's catalog cached about the table: another catalog replaced it (a
     * switch-over's renames).
     */
    public void forget(String table) {
        if (catalog instanceof CachingCatalog caching) {
            TableId id = TableId.of(table);
            caching.invalidateTable(Identifier.create(id.database(), id.name()));
        }
    }

    /**
     * An option of the table as this catalog last read it (it caches tables: a change another
     * catalog made may show late); empty when unset or there is no table.
     */
    public Optional<String> option(String table, String key) {
        TableId id = TableId.of(table);
        try {
            return Optional.ofNullable(
                    catalog.getTable(Identifier.create(id.database(), id.name()))
                            .options()
                            .get(key));
        } catch (Catalog.TableNotExistException e) {
            return Optional.empty();
        }
    }

    /** Whether the warehouse holds the table. */
    public boolean exists(String table) {
        TableId id = TableId.of(table);
        try {
            catalog.getTable(Identifier.create(id.database(), id.name()));
            return true;
        } catch (Catalog.TableNotExistException e) {
            return false;
        }
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
