package io.mtables.ddl.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.recording.SystemTables;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.ddl.StatementAudited;
import io.mtables.schemas.ddl.StatementResult;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditTableTest {

    @TempDir Path dir;

    @Test
    void aRecordReadTwiceIsOneRowAndACallerReadsWhatItMayOldestFirst() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        StatementAudited alice = audited("user:alice", "a-1", Instant.ofEpochMilli(2_000));
        StatementAudited bob = audited("user:bob", "b-1", Instant.ofEpochMilli(1_000));
        StatementAudited nobody = audited(null, null, Instant.ofEpochMilli(3_000));
        try (Catalog catalog = SystemTables.catalog(warehouse)) {
            AuditTable.create(catalog);
            AuditTable.create(catalog); // at every start: the table there is kept
            StreamWriteBuilder builder =
                    catalog.getTable(AuditTable.IDENTIFIER).newStreamWriteBuilder();
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                write.write(AuditTable.row("0@0", alice));
                write.write(AuditTable.row("0@1", bob));
                commit.commit(0, write.prepareCommit(false, 0));
                // After a crash between Paimon's commit and the offsets': the same records again.
                write.write(AuditTable.row("0@0", alice));
                write.write(AuditTable.row("0@1", bob));
                write.write(AuditTable.row("0@2", nobody));
                commit.commit(1, write.prepareCommit(false, 1));
            }
        }

        assertThat(requestIds(AuditTable.read(warehouse, Optional.empty(), who -> true)))
                .as("an admin: every row once, oldest first")
                .containsExactly("b-1", "a-1", null);
        assertThat(requestIds(AuditTable.read(warehouse, Optional.empty(), "user:alice"::equals)))
                .as("alice: her own")
                .containsExactly("a-1");
        assertThat(requestIds(AuditTable.read(warehouse, Optional.of("user:bob"), who -> true)))
                .as("WHERE principal = 'user:bob'")
                .containsExactly("b-1");
        Object[] row = AuditTable.read(warehouse, Optional.of("user:alice"), who -> true).get(0);
        assertThat(Arrays.asList(row))
                .as("in the columns' order")
                .containsExactly(
                        "user:alice",
                        2_000L,
                        "rest",
                        "10.0.0.1:5000",
                        "a-1",
                        "ab12",
                        "DROP TABLE",
                        "default_catalog.s.t",
                        "FAILED",
                        "PermissionDenied");
        assertThat(AuditTable.COLUMNS).hasSize(row.length);
    }

    @Test
    void aReadHoldsTheNewestRowsAloneInTheirOrderOnTheTopic() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        int rows = AuditTable.NEWEST_READ + 2;
        try (Catalog catalog = SystemTables.catalog(warehouse)) {
            AuditTable.create(catalog);
            StreamWriteBuilder builder =
                    catalog.getTable(AuditTable.IDENTIFIER).newStreamWriteBuilder();
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                for (int offset = 0; offset < rows; offset++) {
                    // All in one millisecond: the offset orders them (as a number: 9 before 10).
                    write.write(
                            AuditTable.row(
                                    "0@" + offset,
                                    audited("user:alice", "r" + offset, Instant.ofEpochMilli(5))));
                }
                commit.commit(0, write.prepareCommit(false, 0));
            }
        }

        List<String> read = requestIds(AuditTable.read(warehouse, Optional.empty(), who -> true));

        assertThat(read).hasSize(AuditTable.NEWEST_READ);
        assertThat(read.get(0)).isEqualTo("r2");
        assertThat(read.subList(7, 9)).containsExactly("r9", "r10");
        assertThat(read.get(read.size() - 1)).isEqualTo("r" + (rows - 1));
    }

    @Test
    void nothingRecordedYetReadsAsNoRows() {
        assertThat(
                        AuditTable.read(
                                Warehouse.at(dir.resolve("empty").toUri().toString()),
                                Optional.empty(),
                                who -> true))
                .isEmpty();
    }

    private static StatementAudited audited(String principal, String requestId, Instant at) {
        return new StatementAudited(
                principal,
                "rest",
                "10.0.0.1:5000",
                requestId,
                "ab12",
                "DROP TABLE",
                "default_catalog.s.t",
                StatementResult.Status.FAILED,
                "PermissionDenied",
                at);
    }

    private static List<String> requestIds(List<Object[]> rows) {
        return rows.stream().map(row -> (String) row[4]).toList();
    }
}
