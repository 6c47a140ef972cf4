package io.mtables.ddl.statements;

import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDefinition.Distribution;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;

/** Flink's schema objects as our contract's records. */
final class TableSchemas {

    private TableSchemas() {}

    static List<Column> columns(ResolvedSchema schema) {
        return schema.getColumns().stream()
                .map(
                        column ->
                                new Column(
                                        column.getName(),
                                        LogicalTypeUtils.removeTimeAttributes(
                                                        column.getDataType().getLogicalType())
                                                .copy(true)
                                                .asSummaryString(),
                                        column.getDataType().getLogicalType().isNullable()))
                .toList();
    }

    static List<String> primaryKey(ResolvedSchema schema) {
        return schema.getPrimaryKey().map(key -> List.copyOf(key.getColumns())).orElse(List.of());
    }

    static Distribution distribution(Optional<TableDistribution> distribution) {
        return distribution
                .map(
                        d ->
                                new Distribution(
                                        d.getKind() == TableDistribution.Kind.UNKNOWN
                                                ? null
                                                : d.getKind().name(),
                                        List.copyOf(d.getBucketKeys()),
                                        d.getBucketCount().orElse(null)))
                .orElse(null);
    }

    /** Options sorted by key, so that equal definitions compare and print equal. */
    static Map<String, String> sorted(Map<String, String> options) {
        return new TreeMap<>(options);
    }
}
