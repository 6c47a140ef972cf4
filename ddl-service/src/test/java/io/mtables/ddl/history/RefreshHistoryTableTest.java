package io.mtables.ddl.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.recording.SystemTables;
import io.mtables.planning.Warehouse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RefreshHistoryTableTest {

    @TempDir Path dir;

    @Test
    void oneTablesReadHoldsExactlyItsNewestRowsAcrossOverlappingRuns() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        try (Catalog catalog = SystemTables.catalog(warehouse)) {
            RefreshHistoryTable.create(catalog);
            Table table = catalog.getTable(RefreshHistoryTable.IDENTIFIER);
            StreamWriteBuilder builder = table.newStreamWriteBuilder();
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                // Three commits, so the bucket holds overlapping sorted runs that the read merges.
                for (int commitId = 0; commitId < 3; commitId++) {
                    for (int table1 = 0; table1 < 50; table1++) {
                        write.write(
                                RefreshHistoryTable.row(
                                        entry(
                                                "default_catalog.s.t" + table1,
                                                "e" + commitId,
                                                "SUCCEEDED")));
                    }
                    if (commitId == 2) {
                        write.write(
                                RefreshHistoryTable.row(
                                        entry("default_catalog.s.t7", "e0", "FAILED")));
                        write.write(RefreshHistoryTable.deletion("default_catalog.s.t7", "e1"));
                    }
                    commit.commit(commitId, write.prepareCommit(false, commitId));
                }
            }
        }

        List<Object[]> rows =
                RefreshHistoryTable.read(warehouse, Optional.of("default_catalog.s.t7"));

        List<String> seen = new ArrayList<>();
        rows.forEach(row -> seen.add(row[0] + " " + row[3]));
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        "default_catalog.s.t7 FAILED", "default_catalog.s.t7 SUCCEEDED");
        assertThat(RefreshHistoryTable.read(warehouse, Optional.empty())).hasSize(149);
    }

    @Test
    void aTableCreatedWithoutTheReadAndWriteOptionsGetsThem() throws Exception {
        try (Catalog catalog = SystemTables.catalog(Warehouse.at(dir.toUri().toString()))) {
            catalog.createDatabase(RefreshHistoryTable.IDENTIFIER.getDatabaseName(), true);
            catalog.createTable(
                    RefreshHistoryTable.IDENTIFIER,
                    Schema.newBuilder()
                            .column("table_name", DataTypes.STRING().notNull())
                            .column("event_id", DataTypes.STRING().notNull())
                            .primaryKey("table_name", "event_id")
                            .option("bucket", "4")
                            .option("bucket-key", "table_name")
                            .build(),
                    false);

            RefreshHistoryTable.create(catalog);

            assertThat(catalog.getTable(RefreshHistoryTable.IDENTIFIER).options())
                    .containsAllEntriesOf(RefreshHistoryTable.READ_OPTIONS)
                    .containsAllEntriesOf(RefreshHistoryTable.WRITE_OPTIONS);
        }
    }

    private static HistoryEntry entry(String table, String eventId, String state) {
        Instant at = Instant.parse("2026-12-01T00:00:00Z");
        return new HistoryEntry(
                table, eventId, 1, "SCHEDULED", state, null, at, at, at, at, 10L, 1L, null, null);
    }
}
