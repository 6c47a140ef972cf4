package io.mtables.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;

/**
 * The Paimon warehouse the benches read, with Paimon's own API (no Flink job of ours in the way).
 */
final class Warehouse {

    private final Catalog catalog;

    /**
     * The warehouse at {@code path}; on an object store, its endpoint and keys from MT_S3_* as the
     * services read them.
     */
    Warehouse(String path) {
        Options options = new Options();
        options.set("warehouse", path);
        if (path.startsWith("s3://")) {
            options.set("s3.endpoint", System.getenv().getOrDefault("MT_S3_ENDPOINT", ""));
            options.set(
                    "s3.path.style.access",
                    System.getenv().getOrDefault("MT_S3_PATH_STYLE_ACCESS", "true"));
            options.set("s3.access-key", System.getenv().getOrDefault("MT_S3_ACCESS_KEY", ""));
            options.set("s3.secret-key", System.getenv().getOrDefault("MT_S3_SECRET_KEY", ""));
        }
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** The table, once the job manager created it. */
    FileStoreTable awaitTable(String database, String name, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return (FileStoreTable) catalog.getTable(Identifier.create(database, name));
            } catch (Catalog.TableNotExistException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(200);
            }
        }
    }

    /** A new empty table with the schema and options of {@code like}. */
    FileStoreTable createLike(FileStoreTable like, String database, String name) throws Exception {
        Schema schema = like.schema().toSchema();
        Map<String, String> options = new HashMap<>(schema.options());
        options.remove("path");
        catalog.createDatabase(database, true);
        catalog.createTable(
                Identifier.create(database, name),
                new Schema(
                        schema.fields(),
                        schema.partitionKeys(),
                        schema.primaryKeys(),
                        options,
                        schema.comment()),
                false);
        return (FileStoreTable) catalog.getTable(Identifier.create(database, name));
    }

    /**
     * Waits for the first snapshot whose table holds a row with {@code column = value} and returns
     * that snapshot (its commit time is when the row became readable). Each new snapshot is looked
     * up with the key as a filter, so Paimon reads only the files whose key range holds it.
     */
    static Snapshot awaitRow(FileStoreTable table, String column, long value, Duration timeout)
            throws Exception {
        int index = table.rowType().getFieldNames().indexOf(column);
        var filter = new PredicateBuilder(table.rowType()).equal(index, value);
        long deadline = System.nanoTime() + timeout.toNanos();
        long checked = 0;
        while (System.nanoTime() < deadline) {
            Long latest = table.snapshotManager().latestSnapshotId();
            for (long id = checked + 1; latest != null && id <= latest; id++) {
                if (holds(
                        table.copy(Map.of("scan.snapshot-id", String.valueOf(id))),
                        filter,
                        index,
                        value)) {
                    return table.snapshotManager().snapshot(id);
                }
                checked = id;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(
                "no snapshot of "
                        + table.name()
                        + " holds "
                        + column
                        + " = "
                        + value
                        + " within "
                        + timeout);
    }

    private static boolean holds(FileStoreTable snapshot, Predicate filter, int index, long value)
            throws Exception {
        ReadBuilder read = snapshot.newReadBuilder().withFilter(filter);
        try (RecordReader<InternalRow> reader =
                read.newRead().executeFilter().createReader(read.newScan().plan())) {
            boolean[] found = {false};
            reader.forEachRemaining(row -> found[0] |= row.getLong(index) == value);
            return found[0];
        }
    }

    /**
     * The digest of every row of the table's latest snapshot, each value as text in column order.
     */
    static RowDigest digest(FileStoreTable table) throws Exception {
        RowDigest digest = new RowDigest();
        var fields = table.rowType().getFields();
        var getters =
                fields.stream()
                        .map(f -> InternalRow.createFieldGetter(f.type(), fields.indexOf(f)))
                        .toList();
        ReadBuilder read = table.newReadBuilder();
        try (RecordReader<InternalRow> reader =
                read.newRead().createReader(read.newScan().plan())) {
            reader.forEachRemaining(
                    row -> digest.add(getters.stream().map(g -> g.getFieldOrNull(row)).toArray()));
        }
        return digest;
    }

    static String columns(FileStoreTable table) {
        return String.join(
                ", ", table.rowType().getFields().stream().map(DataField::name).toList());
    }
}
