package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.Warehouse;
import java.nio.file.Path;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which of a table's snapshots holds what a savepoint of the job writing it holds, on real Paimon
 * commits made as a streaming job's committer makes them: one per checkpoint id with files, in the
 * order of the ids, none for an id without files.
 */
class PaimonSnapshotsSavedByTest {

    private static final String TABLE = "default_catalog.shop.counts";

    @TempDir Path dir;

    private Warehouse warehouse;
    private Catalog catalog;
    private PaimonSnapshots snapshots;
    private StreamTableWrite write;
    private StreamTableCommit commit;

    @BeforeEach
    void createTable() throws Exception {
        warehouse = Warehouse.at(dir.resolve("warehouse").toUri().toString());
        catalog = WarehouseCatalog.open(warehouse);
        catalog.createDatabase("shop", true);
        Identifier id = Identifier.create("shop", "counts");
        catalog.createTable(
                id,
                Schema.newBuilder()
                        .column("category", DataTypes.STRING().notNull())
                        .column("n", DataTypes.BIGINT())
                        .primaryKey("category")
                        .option("bucket", "1")
                        .build(),
                false);
        Table table = catalog.getTable(id);
        StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("job");
        write = builder.newWrite();
        commit = builder.newCommit();
        snapshots = new PaimonSnapshots(warehouse);
    }

    @AfterEach
    void close() throws Exception {
        write.close();
        commit.close();
        snapshots.close();
        catalog.close();
    }

    @Test
    void theSavepointsOwnSnapshotOnceCommitted() throws Exception {
        checkpoint(1, "a");
        checkpoint(2, "b");
        long before = 2; // the latest snapshot when the savepoint (id 3) was asked for
        assertThat(snapshots.savedBy(TABLE, before, 3))
                .as("its files not committed yet")
                .isEqualTo(new PaimonSnapshots.SavedSnapshot(2, false));

        checkpoint(3, "c"); // the savepoint's files, committed with the next checkpoint
        checkpoint(4, "d");

        assertThat(snapshots.savedBy(TABLE, before, 3))
                .isEqualTo(new PaimonSnapshots.SavedSnapshot(3, true));
    }

    @Test
    void theNewestBeforeWhenTheSavepointWroteNothing() throws Exception {
        checkpoint(1, "a");
        long before = 1;
        checkpoint(2, "b"); // committed after the savepoint was asked for, before it
        checkpoint(4, "d"); // the savepoint (3) wrote nothing: no snapshot under its id

        assertThat(snapshots.savedBy(TABLE, before, 3))
                .isEqualTo(new PaimonSnapshots.SavedSnapshot(2, true));
    }

    @Test
    void aTableWithoutSnapshotsBeforeHoldsNothingUntilTheSavepointsFilesCome() throws Exception {
        assertThat(snapshots.savedBy(TABLE, 0, 1))
                .isEqualTo(new PaimonSnapshots.SavedSnapshot(0, false));

        checkpoint(1, "a");

        assertThat(snapshots.savedBy(TABLE, 0, 1))
                .isEqualTo(new PaimonSnapshots.SavedSnapshot(1, true));
    }

    /** One checkpoint's commit, as Paimon's committer makes it: the id as commit identifier. */
    private void checkpoint(long id, String category) throws Exception {
        write.write(GenericRow.of(BinaryString.fromString(category), id));
        commit.commit(id, write.prepareCommit(false, id));
        assertThat(snapshots.latest(TABLE).orElseThrow().commitIdentifier()).isEqualTo(id);
    }
}
