package io.mtables.ddl.audit;

import io.mtables.ddl.domain.ReservedNames;
import io.mtables.ddl.infra.InMemorySql;
import io.mtables.ddl.recording.SystemTables;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.ddl.StatementAudited;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * The audit trail as a Paimon table in the warehouse, {@code mt_system.audit}: every record of
 * {@code mt.ddl.audit}, kept for good (rows are added, never changed; the topic's retention does
 * not reach it), readable by any engine that reads Paimon, and the rows of {@code
 * information_schema.audit}. Keyed by the record's position on the topic and its time, so a record
 * read twice is one row.
 */
public final class AuditTable {

    public static final Identifier IDENTIFIER =
            Identifier.create(ReservedNames.SYSTEM_SCHEMA, "audit");

    /** The columns of {@code information_schema.audit}, in order (the position is not shown). */
    public static final List<InMemorySql.Column> COLUMNS =
            List.of(
                    new InMemorySql.Column("principal", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("at", SqlTypeName.TIMESTAMP, false),
                    new InMemorySql.Column("via", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("client", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("request_id", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("statement_sha256", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("statement_kind", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("table_name", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("status", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("reason", SqlTypeName.VARCHAR, true));

    /** The principal's field in the stored row (after the position). */
    private static final int PRINCIPAL = 1;

    /**
     * How many rows {@code information_schema.audit} answers from: the newest the caller may read
     * (a read holds no more than these in memory; the table itself keeps every row, for any Paimon
     * reader).
     */
    public static final int NEWEST_READ = 10_000;

    /** Oldest first: by time, then by position on the topic (partition, offset). */
    private static final Comparator<Read> OLDEST_FIRST =
            Comparator.comparingLong(Read::at)
                    .thenComparingInt(Read::partition)
                    .thenComparingLong(Read::offset);

    /** A row read, with what orders it. */
    private record Read(long at, int partition, long offset, Object[] columns) {}

    private AuditTable() {}

    /** Creates the table if it is not there yet. */
    static void create(Catalog catalog) throws Exception {
        catalog.createDatabase(IDENTIFIER.getDatabaseName(), true);
        Schema schema =
                Schema.newBuilder()
                        .column("position", DataTypes.STRING().notNull())
                        .column("principal", DataTypes.STRING())
                        .column("at", DataTypes.BIGINT().notNull())
                        .column("via", DataTypes.STRING().notNull())
                        .column("client", DataTypes.STRING().notNull())
                        .column("request_id", DataTypes.STRING())
                        .column("statement_sha256", DataTypes.STRING())
                        .column("statement_kind", DataTypes.STRING())
                        .column("table_name", DataTypes.STRING())
                        .column("status", DataTypes.STRING().notNull())
                        .column("reason", DataTypes.STRING())
                        // The position alone names a record while the topic lives; with its time,
                        // a topic made again (offsets from 0) overwrites no row.
                        .primaryKey("position", "at")
                        .option("bucket", "1")
                        // As the refresh history (RefreshHistoryTable): ORC, not Parquet.
                        .option("file.format", "orc")
                        .comment(
                                "Every statement ddl-service answered: who, from where, the"
                                        + " statement's SHA-256 and kind, the outcome (at in epoch"
                                        + " milliseconds; position: the record's on mt.ddl.audit)")
                        .build();
        catalog.createTable(IDENTIFIER, schema, true);
    }

    /** The row of the record at {@code position} ({@code <partition>@<offset>}). */
    static GenericRow row(String position, StatementAudited audited) {
        return GenericRow.of(
                text(position),
                text(audited.principal()),
                audited.at().toEpochMilli(),
                text(audited.via()),
                text(audited.client()),
                text(audited.requestId()),
                text(audited.statementSha256()),
                text(audited.statementKind()),
                text(audited.table()),
                text(Objects.toString(audited.status(), null)),
                text(audited.reason()));
    }

    /**
     * The newest {@link #NEWEST_READ} rows the caller may read, in {@link #COLUMNS} order, oldest
     * first; empty when nothing was recorded yet.
     *
     * @param principal the principal the query fixes ({@code WHERE principal = 'x'}), if it does
     * @param readable whether the caller may read a principal's records (null: unauthenticated
     *     senders')
     */
    public static List<Object[]> read(
            Warehouse warehouse, Optional<String> principal, Predicate<String> readable) {
        try {
            Table paimon = SystemTables.opened(warehouse, IDENTIFIER);
            if (paimon == null) {
                return List.of();
            }
            ReadBuilder read = paimon.newReadBuilder();
            if (principal.isPresent()) {
                read =
                        read.withFilter(
                                new PredicateBuilder(paimon.rowType())
                                        .equal(
                                                PRINCIPAL,
                                                BinaryString.fromString(principal.get())));
            }
            PriorityQueue<Read> newest = new PriorityQueue<>(OLDEST_FIRST);
            // Asked once per sender, not per row: each answer is a timed privilege check
            // (mt_access_seconds), and the table holds many rows of few senders.
            Map<String, Boolean> allowed = new HashMap<>();
            try (RecordReader<InternalRow> reader =
                    read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(
                        row -> {
                            String who = textOrNull(row, PRINCIPAL);
                            // The filter may skip files, not rows: each row checked again.
                            if (principal.map(p -> p.equals(who)).orElse(true)
                                    && allowed.computeIfAbsent(who, readable::test)) {
                                newest.add(read(row));
                                if (newest.size() > NEWEST_READ) {
                                    newest.poll(); // the oldest
                                }
                            }
                        });
            }
            List<Read> kept = new ArrayList<>(newest);
            kept.sort(OLDEST_FIRST);
            return kept.stream().map(Read::columns).toList();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read the audit trail from the warehouse "
                            + warehouse
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static Read read(InternalRow row) {
        String position = row.getString(0).toString();
        int at = position.indexOf('@');
        return new Read(
                row.getLong(2),
                Integer.parseInt(position.substring(0, at)),
                Long.parseLong(position.substring(at + 1)),
                columns(row));
    }

    private static Object[] columns(InternalRow row) {
        Object[] columns = new Object[COLUMNS.size()];
        columns[0] = textOrNull(row, PRINCIPAL);
        columns[1] = row.getLong(2);
        for (int field = 3; field <= 10; field++) {
            columns[field - 1] = textOrNull(row, field);
        }
        return columns;
    }

    private static BinaryString text(String value) {
        return value == null ? null : BinaryString.fromString(value);
    }

    private static String textOrNull(InternalRow row, int field) {
        return row.isNullAt(field) ? null : row.getString(field).toString();
    }
}
