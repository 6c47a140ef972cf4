package io.mtables.ddl.history;

import io.mtables.ddl.domain.ReservedNames;
import io.mtables.ddl.infra.InMemorySql;
import io.mtables.ddl.recording.SystemTables;
import io.mtables.planning.Warehouse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

/**
 * The refresh history as a Paimon table in the warehouse, {@code mt_system.refresh_history}: any
 * engine that reads Paimon reads it. Keyed by (table_name, event_id), so an event read twice is one
 * row; bucketed by table_name, so one table's history is read from one bucket.
 */
public final class RefreshHistoryTable {

    public static final Identifier IDENTIFIER =
            Identifier.create(ReservedNames.SYSTEM_SCHEMA, "refresh_history");

    /**
     * The columns as information_schema.refresh_history shows them (event_id is storage, not
     * shown).
     */
    public static final List<InMemorySql.Column> COLUMNS =
            List.of(
                    new InMemorySql.Column("table_name", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("definition_version", SqlTypeName.BIGINT, true),
                    new InMemorySql.Column("refresh_trigger", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("state", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("state_message", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("scheduled_time", SqlTypeName.TIMESTAMP, true),
                    new InMemorySql.Column("data_timestamp", SqlTypeName.TIMESTAMP, true),
                    new InMemorySql.Column("started_at", SqlTypeName.TIMESTAMP, true),
                    new InMemorySql.Column("finished_at", SqlTypeName.TIMESTAMP, true),
                    new InMemorySql.Column("rows_written", SqlTypeName.BIGINT, true),
                    new InMemorySql.Column("snapshot_id", SqlTypeName.BIGINT, true),
                    new InMemorySql.Column("freshness", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("freshness_met", SqlTypeName.BOOLEAN, true));

    /**
     * A query of one table's history reads that table's bucket whole (its files merged by key).
     * More buckets did not make it faster: at 64, bin/bench history's query took as long (257 ms
     * p50 against 250 ms at 4; opening the files and planning the scan cost as much as the rows),
     * recording was three times slower and the table 2.8 times larger.
     */
    private static final int BUCKETS = 4;

    /**
     * How ORC reads one table's rows (measured in one process over bin/bench history's 600,000
     * rows, warm: 17-21 ms to 13 ms a read). The reader drops other tables' rows itself (ORC's
     * filter from the table_name predicate, rows of one key all alike, so the merge of sorted runs
     * stays right): 60 rows merged instead of about 24,000 (its row groups of 10,000). Set on a
     * table created before, as reading options they serve its files already written.
     */
    static final Map<String, String> READ_OPTIONS =
            Map.of("orc.sarg.to.filter", "true", "orc.filter.use.selected", "true");

    /**
     * ORC's compression chunks of 16 KB instead of 256 KB: a read allocated a 256 KB buffer per
     * column stream and file (a quarter of a warm read's samples, in ByteBuffer.allocate).
     */
    static final Map<String, String> WRITE_OPTIONS = Map.of("orc.compress.size", "16384");

    private RefreshHistoryTable() {}

    /** Creates the table if it is not there yet. */
    static void create(Catalog catalog) throws Exception {
        catalog.createDatabase(IDENTIFIER.getDatabaseName(), true);
        Schema schema =
                Schema.newBuilder()
                        .column("table_name", DataTypes.STRING().notNull())
                        .column("event_id", DataTypes.STRING().notNull())
                        .column("definition_version", DataTypes.BIGINT())
                        .column("refresh_trigger", DataTypes.STRING())
                        .column("state", DataTypes.STRING())
                        .column("state_message", DataTypes.STRING())
                        .column("scheduled_time", DataTypes.BIGINT())
                        .column("data_timestamp", DataTypes.BIGINT())
                        .column("started_at", DataTypes.BIGINT())
                        .column("finished_at", DataTypes.BIGINT())
                        .column("rows_written", DataTypes.BIGINT())
                        .column("snapshot_id", DataTypes.BIGINT())
                        .column("freshness", DataTypes.STRING())
                        .column("freshness_met", DataTypes.BOOLEAN())
                        .primaryKey("table_name", "event_id")
                        .option("bucket", String.valueOf(BUCKETS))
                        .option("bucket-key", "table_name")
                        // As our tables (JobSql.FILE_FORMAT): Paimon 1.3's Parquet reader parses
                        // Hadoop's core-default.xml for every file it opens (apache/paimon#7080),
                        // seen in bin/bench history.
                        .option("file.format", "orc")
                        .options(READ_OPTIONS)
                        .options(WRITE_OPTIONS)
                        .comment(
                                "The refresh history of every materialized table, written by"
                                        + " ddl-service (timestamps in epoch milliseconds)")
                        .build();
        catalog.createTable(IDENTIFIER, schema, true);
        Map<String, String> options = catalog.getTable(IDENTIFIER).options();
        List<SchemaChange> missing = new ArrayList<>();
        for (Map<String, String> wanted : List.of(READ_OPTIONS, WRITE_OPTIONS)) {
            wanted.forEach(
                    (key, value) -> {
                        if (!value.equals(options.get(key))) {
                            missing.add(SchemaChange.setOption(key, value));
                        }
                    });
        }
        if (!missing.isEmpty()) {
            catalog.alterTable(IDENTIFIER, missing, false);
        }
    }

    static GenericRow row(HistoryEntry entry) {
        return GenericRow.of(
                BinaryString.fromString(entry.table()),
                BinaryString.fromString(entry.eventId()),
                entry.definitionVersion(),
                text(entry.trigger()),
                text(entry.state()),
                text(entry.stateMessage()),
                millis(entry.scheduledTime()),
                millis(entry.dataTimestamp()),
                millis(entry.startedAt()),
                millis(entry.finishedAt()),
                entry.rowsWritten(),
                entry.snapshotId(),
                entry.freshness() == null
                        ? null
                        : BinaryString.fromString(entry.freshness().toString()),
                entry.freshnessMet());
    }

    /** The delete of a row by its key. */
    static GenericRow deletion(String table, String eventId) {
        GenericRow row = new GenericRow(RowKind.DELETE, 14);
        row.setField(0, BinaryString.fromString(table));
        row.setField(1, BinaryString.fromString(eventId));
        return row;
    }

    /**
     * The rows for information_schema, in {@link #COLUMNS} order; only {@code table}'s when given.
     * Empty when nothing was recorded yet.
     */
    public static List<Object[]> read(Warehouse warehouse, Optional<String> table) {
        try {
            Table paimon = SystemTables.opened(warehouse, IDENTIFIER);
            if (paimon == null) {
                return List.of();
            }
            List<Object[]> rows = new ArrayList<>();
            ReadBuilder read = paimon.newReadBuilder();
            BinaryString wanted = table.map(BinaryString::fromString).orElse(null);
            if (wanted != null) {
                read = read.withFilter(new PredicateBuilder(paimon.rowType()).equal(0, wanted));
            }
            try (RecordReader<InternalRow> reader =
                    read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(
                        row -> {
                            // The bucket holds other tables' rows too: compared as Paimon holds
                            // them, not decoded.
                            if (wanted == null || wanted.equals(row.getString(0))) {
                                rows.add(
                                        new Object[] {
                                            row.getString(0).toString(),
                                            longOrNull(row, 2),
                                            textOrNull(row, 3),
                                            textOrNull(row, 4),
                                            textOrNull(row, 5),
                                            longOrNull(row, 6),
                                            longOrNull(row, 7),
                                            longOrNull(row, 8),
                                            longOrNull(row, 9),
                                            longOrNull(row, 10),
                                            longOrNull(row, 11),
                                            textOrNull(row, 12),
                                            row.isNullAt(13) ? null : row.getBoolean(13)
                                        });
                            }
                        });
            }
            return rows;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read the refresh history from the warehouse "
                            + warehouse
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Every recorded row's key and end time, for the bounds: table, event id, finished at (ms). */
    static List<Object[]> keys(Catalog catalog) throws Exception {
        Table paimon = catalog.getTable(IDENTIFIER);
        List<Object[]> keys = new ArrayList<>();
        ReadBuilder read = paimon.newReadBuilder().withProjection(new int[] {0, 1, 9});
        try (RecordReader<InternalRow> reader =
                read.newRead().createReader(read.newScan().plan())) {
            reader.forEachRemaining(
                    row ->
                            keys.add(
                                    new Object[] {
                                        row.getString(0).toString(),
                                        row.getString(1).toString(),
                                        row.isNullAt(2) ? 0L : row.getLong(2)
                                    }));
        }
        return keys;
    }

    private static BinaryString text(String value) {
        return value == null ? null : BinaryString.fromString(value);
    }

    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    private static Long longOrNull(InternalRow row, int field) {
        return row.isNullAt(field) ? null : row.getLong(field);
    }

    private static String textOrNull(InternalRow row, int field) {
        return row.isNullAt(field) ? null : row.getString(field).toString();
    }
}
