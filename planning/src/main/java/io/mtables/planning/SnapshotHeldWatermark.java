package io.mtables.planning;

import io.mtables.schemas.catalog.TableId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.expressions.SqlCallExpression;

/**
 * Holds a captured table's watermark still while Debezium's snapshot of the table is read.
 *
 * <p>A snapshot reads the table in its storage order, not in event time, so a watermark of "the
 * newest event time so far minus the delay" runs past rows the snapshot has yet to read, and a
 * window aggregation drops them as late: a window table then differs from PostgreSQL whenever the
 * table had rows before its capture began (measured with the clicks example: 3 runs of 6). A
 * streaming job therefore reads each record's Debezium source block (a hidden virtual column of the
 * Kafka connector's {@code value.source.properties}) and its watermark expression yields no
 * watermark (NULL, which Flink skips) for a record the block marks as part of a snapshot ({@code
 * snapshot} other than {@code false}). The first streamed change moves the watermark on, past every
 * row the snapshot read.
 */
public final class SnapshotHeldWatermark {

    /** The metadata key of the Debezium source block, as the Kafka connector names it. */
    static final String SOURCE_BLOCK_KEY = "value.source.properties";

    /** The hidden column's name, suffixed with a number if a user's column has it. */
    static final String COLUMN = "mt_debezium_source";

    private SnapshotHeldWatermark() {}

    /**
     * Rewrites the source table {@code table}, just declared in {@code env}, if it is a Kafka table
     * of Debezium changes with a watermark; leaves any other table as it is.
     */
    public static void apply(TableEnvironment env, String table) {
        TableId id = TableId.of(table);
        CatalogBaseTable declared = declared(env, id);
        Schema schema = declared.getUnresolvedSchema();
        if (!isDebeziumKafka(declared.getOptions()) || schema.getWatermarkSpecs().size() != 1) {
            return;
        }
        Schema.UnresolvedWatermarkSpec watermark = schema.getWatermarkSpecs().get(0);
        // A source declared by CREATE TABLE keeps its watermark as SQL text: the only kind here.
        if (!(watermark.getWatermarkExpression() instanceof SqlCallExpression declaredSql)) {
            return;
        }
        String expression = declaredSql.getSqlExpression();
        String column = freeName(schema);
        // SELECT * leaves the hidden column out (queries are stored expanded; this is for safety).
        env.getConfig()
                .set(
                        TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY,
                        List.of(
                                TableConfigOptions.ColumnExpansionStrategy
                                        .EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS));
        env.executeSql(
                "ALTER TABLE "
                        + id.quoted()
                        + " ADD "
                        + PaimonTables.quote(column)
                        + " MAP<STRING, STRING> METADATA FROM '"
                        + SOURCE_BLOCK_KEY
                        + "' VIRTUAL");
        env.executeSql(
                "ALTER TABLE "
                        + id.quoted()
                        + " MODIFY WATERMARK FOR "
                        + PaimonTables.quote(watermark.getColumnName())
                        + " AS "
                        + heldExpression(column, expression));
    }

    /** The watermark expression that yields NULL for a record of a snapshot. */
    static String heldExpression(String column, String expression) {
        String snapshot = PaimonTables.quote(column) + "['snapshot']";
        return "CASE WHEN "
                + snapshot
                + " IS NOT NULL AND "
                + snapshot
                + " <> 'false' THEN NULL ELSE ("
                + expression
                + ") END";
    }

    private static boolean isDebeziumKafka(Map<String, String> options) {
        return "kafka".equals(options.get("connector"))
                && ("debezium-json".equals(options.get("format"))
                        || "debezium-json".equals(options.get("value.format")));
    }

    private static CatalogBaseTable declared(TableEnvironment env, TableId id) {
        try {
            return env.getCatalog(id.catalog())
                    .orElseThrow()
                    .getTable(new ObjectPath(id.database(), id.name()));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the declaration of " + id, e);
        }
    }

    private static String freeName(Schema schema) {
        Set<String> taken = new HashSet<>();
        schema.getColumns().forEach(c -> taken.add(c.getName().toLowerCase()));
        String name = COLUMN;
        for (int n = 2; taken.contains(name); n++) {
            name = COLUMN + "_" + n;
        }
        return name;
    }
}
