package io.mtables.ddl.infra;

import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.SwitchOverNames;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.SyntheticKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.eclipse.microprofile.config.Config;

/**
 * Reads the latest snapshot of a materialized table from the Paimon warehouse with Paimon's own
 * API, as rows {@link InMemorySql} can query. Meant for looking at a table, not for analytics over
 * large ones: the whole snapshot is read (Flink SQL or any Paimon reader pointed at the warehouse
 * serves those).
 */
public class WarehouseReader {

    private final Warehouse warehouse;

    public WarehouseReader(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    /**
     * The warehouse job-manager-service writes, by the same keys and defaults as its own: {@code
     * mt.paimon.warehouse}, else {@code <mt.data-dir>/warehouse}; an object store's endpoint and
     * credentials from {@code mt.s3.*}.
     */
    public static Warehouse configured(Config config) {
        String dataDir = config.getOptionalValue("mt.data-dir", String.class).orElse(".run/data");
        String uri =
                config.getOptionalValue("mt.paimon.warehouse", String.class)
                        .orElse(
                                Path.of(dataDir)
                                        .toAbsolutePath()
                                        .normalize()
                                        .resolve("warehouse")
                                        .toUri()
                                        .toString());
        return Warehouse.withS3(
                uri,
                config.getOptionalValue("mt.s3.endpoint", String.class),
                config.getOptionalValue("mt.s3.path-style-access", Boolean.class).orElse(false),
                config.getOptionalValue("mt.s3.access-key", String.class),
                config.getOptionalValue("mt.s3.secret-key", String.class));
    }

    /** Where it reads. */
    public Warehouse location() {
        return warehouse;
    }

    /**
     * The rows of {@code table} (catalog.database.name) registered under {@code paths}; empty when
     * it has no data yet. {@code version} is the table's definition version: in the moment between
     * a switch-over's two renames the table's name names no table, and its staged table of that
     * version holds the answer; a read whose files were renamed under it is read again once.
     */
    public Optional<List<InMemorySql.Table>> read(
            String table, long version, List<List<String>> paths) {
        try {
            return readOnce(table, version, paths, true);
        } catch (IllegalStateException e) {
            return readOnce(table, version, paths, false);
        }
    }

    /**
     * One read; {@code lookAgain}: a snapshot with nothing in it is looked for again once, by name,
     * since the name may have been renamed away between finding the table and planning the read (a
     * switch-over), and the second look finds the staged table or the new one.
     */
    private Optional<List<InMemorySql.Table>> readOnce(
            String table, long version, List<List<String>> paths, boolean lookAgain) {
        TableId id = TableId.of(table);
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(warehouse.catalogOptions())))) {
            Table paimon;
            try {
                paimon = catalog.getTable(Identifier.create(id.database(), id.name()));
            } catch (Catalog.TableNotExistException e) {
                try {
                    paimon =
                            catalog.getTable(
                                    Identifier.create(
                                            id.database(),
                                            TableId.of(SwitchOverNames.staged(table, version))
                                                    .name()));
                } catch (Catalog.TableNotExistException none) {
                    return Optional.empty();
                }
            }
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
            ReadBuilder read = paimon.newReadBuilder();
            var plan = read.newScan().plan();
            if (lookAgain && plan.splits().isEmpty()) {
                return readOnce(table, version, paths, false);
            }
            try (RecordReader<InternalRow> reader = read.newRead().createReader(plan)) {
                reader.forEachRemaining(
                        row -> {
                            Object[] values = new Object[getters.size()];
                            for (int i = 0; i < values.length; i++) {
                                values[i] =
                                        javaValue(
                                                getters.get(i).getFieldOrNull(row),
                                                columns.get(i).type());
                            }
                            rows.add(values);
                        });
            }
            List<InMemorySql.Table> tables = new ArrayList<>();
            for (List<String> path : paths) {
                tables.add(new InMemorySql.Table(path, columns, rows));
            }
            return Optional.of(tables);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot read "
                            + table
                            + " from the warehouse "
                            + warehouse
                            + ": "
                            + e.getMessage(),
                    e);
        }
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
