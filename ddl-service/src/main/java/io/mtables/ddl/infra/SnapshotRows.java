package io.mtables.ddl.infra;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;

/**
 * A Paimon table's rows read whole for the query engine: the columns users see (not the synthetic
 * key), values as Calcite takes them, the pushed-down filter and LIMIT applied, and the rows held
 * bounded by {@link ReadLimits}. {@link WarehouseReader} finds the table and reads it again when it
 * moves.
 */
final class SnapshotRows {

    private SnapshotRows() {}

    /**
     * The rows of {@code paimon}'s latest snapshot that {@code pushed} selects, as the tables of
     * {@code paths} (one per name the query reads it by); refused past {@code limits}.
     */
    static List<InMemorySql.Table> read(
            String table,
            Table paimon,
            List<List<String>> paths,
            PushedDown pushed,
            ReadLimits limits)
            throws Exception {
        List<DataField> fields = paimon.rowType().getFields();
        List<InMemorySql.Column> columns = new ArrayList<>();
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(SyntheticKey.COLUMN)) {
                continue; // storage, not data: users never see it
            }
            columns.add(
                    new InMemorySql.Column(
                            fields.get(i).name(),
                            sqlType(fields.get(i)),
                            fields.get(i).type().isNullable()));
            getters.add(InternalRow.createFieldGetter(fields.get(i).type(), i));
        }
        List<Object[]> rows = new ArrayList<>();
        ReadLimits.Tally held = limits.tally();
        PushedDown.Filter filter = pushed.filter(paimon.rowType());
        Predicate predicate = filter.predicate().orElse(null);
        ReadBuilder read = paimon.newReadBuilder();
        if (predicate != null) {
            read.withFilter(predicate); // skips what statistics rule out; rows are tested below
        }
        try (RecordReader<InternalRow> reader =
                read.newRead().createReader(read.newScan().plan())) {
            RecordReader.RecordIterator<InternalRow> batch;
            while (!enough(rows, filter) && (batch = reader.readBatch()) != null) {
                try {
                    InternalRow row;
                    while (!enough(rows, filter) && (row = batch.next()) != null) {
                        if (predicate != null && !predicate.test(row)) {
                            continue;
                        }
                        if (held.full()) {
                            throw tooLarge(
                                    table, limits.maxRows() + " rows (mt.ddl.read-max-rows)");
                        }
                        if (Thread.currentThread().isInterrupted()) {
                            throw new IllegalStateException("the read was stopped");
                        }
                        Object[] values = new Object[getters.size()];
                        for (int i = 0; i < values.length; i++) {
                            values[i] =
                                    javaValue(
                                            getters.get(i).getFieldOrNull(row),
                                            columns.get(i).type());
                        }
                        rows.add(values);
                        if (!held.add(values)) {
                            throw tooLarge(
                                    table,
                                    limits.maxBytes()
                                            + " bytes of values (mt.ddl.read-max-bytes), by row "
                                            + rows.size());
                        }
                    }
                } finally {
                    batch.releaseBatch();
                }
            }
        }
        List<InMemorySql.Table> tables = new ArrayList<>();
        for (List<String> path : paths) {
            tables.add(new InMemorySql.Table(path, columns, rows));
        }
        return tables;
    }

    /** Whether the rows read are all the answer can take (its pushed-down LIMIT). */
    private static boolean enough(List<Object[]> rows, PushedDown.Filter filter) {
        return filter.limit() >= 0 && rows.size() >= filter.limit();
    }

    private static StatementException tooLarge(String table, String limit) {
        return StatementException.invalid(
                WarehouseReader.RESULT_TOO_LARGE,
                "The read of "
                        + table
                        + " stopped at "
                        + limit
                        + ": a SELECT here holds the rows of a table's"
                        + " latest snapshot that its WHERE's comparisons of a column with a literal"
                        + " select (all of them without such a WHERE) before the rest applies.",
                "a WHERE comparing columns with literals (col = 42 AND day >= DATE"
                        + " '2026-01-01'), a LIMIT without ORDER BY, a larger mt.ddl.read-max-rows"
                        + " or mt.ddl.read-max-bytes,"
                        + " or the Paimon table read by an engine of its own (Flink SQL, Spark,"
                        + " Trino)");
    }

    private static SqlTypeName sqlType(DataField field) {
        return switch (field.type().getTypeRoot()) {
            case BOOLEAN -> SqlTypeName.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> SqlTypeName.INTEGER;
            case BIGINT -> SqlTypeName.BIGINT;
            case FLOAT, DOUBLE -> SqlTypeName.DOUBLE;
            case DECIMAL -> SqlTypeName.DECIMAL;
            case DATE -> SqlTypeName.DATE;
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    SqlTypeName.TIMESTAMP;
            default -> SqlTypeName.VARCHAR;
        };
    }

    private static Object javaValue(Object value, SqlTypeName type) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case INTEGER -> ((Number) value).intValue();
            case BIGINT -> ((Number) value).longValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> ((Decimal) value).toBigDecimal();
            case TIMESTAMP -> ((Timestamp) value).getMillisecond();
            case BOOLEAN, DATE -> value;
            default -> value instanceof BinaryString text ? text.toString() : String.valueOf(value);
        };
    }
}
