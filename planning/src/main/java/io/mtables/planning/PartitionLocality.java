package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Which inputs a partitioned table's partitions come from, partition by partition, as proven by
 * Flink's optimizer: the query is planned as a batch with a filter on each partition column of the
 * table ({@code WHERE ds = <probe>}); an input whose every read receives that filter on a partition
 * column of its own (pushed down through projections, joins and aggregations) feeds partition
 * {@code ds = x} of the table from its partition {@code x} only. An input read once without the
 * filter (a scalar subquery over the whole input, a window across partitions) feeds every
 * partition, and so does any input the probe cannot be pushed to.
 */
final class PartitionLocality {

    private static final Pattern SCAN =
            Pattern.compile(
                    "TableSourceScan\\(table=\\[\\[([^,\\]]+), ([^,\\]]+), ([^,\\]]+)(.*)$");

    private PartitionLocality() {}

    /**
     * For each input that feeds the table partition by partition: the table's partition column to
     * the input's partition column it comes from. Empty when none does or the table is not
     * partitioned.
     *
     * @param batch a batch environment in which the query's inputs are declared
     * @param physicalPlan reads Flink's optimized physical plan of a query
     */
    static Map<String, Map<String, String>> of(
            TableEnvironment batch, TableDefinition table, Function<String, String> physicalPlan) {
        boolean partitionedInput =
                table.sources().stream()
                        .anyMatch(
                                s ->
                                        s.kind() == TableDefinition.Kind.MATERIALIZED_TABLE
                                                && s.partitionKeys() != null
                                                && !s.partitionKeys().isEmpty());
        if (table.partitionKeys().isEmpty() || !partitionedInput) {
            return Map.of();
        }
        List<String> conditions = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < table.partitionKeys().size(); i++) {
            String column = table.partitionKeys().get(i);
            String type =
                    table.columns().stream()
                            .filter(c -> c.name().equals(column))
                            .map(TableDefinition.Column::type)
                            .findFirst()
                            .orElse("");
            Probe probe = Probe.of(type, i);
            if (probe == null) {
                return Map.of(); // a type without a probe value: nothing proven
            }
            conditions.add("`q`." + PaimonTables.quote(column) + " = " + probe.literal());
            tokens.add(probe.token());
        }
        String plan;
        try {
            plan =
                    physicalPlan.apply(
                            "SELECT * FROM (\n"
                                    + table.query().expanded()
                                    + "\n) AS `q` WHERE "
                                    + String.join(" AND ", conditions));
        } catch (RuntimeException cannotPlan) {
            return Map.of();
        }
        Map<String, Map<String, String>> mapped = new LinkedHashMap<>();
        for (var source : table.sources()) {
            if (source.kind() != TableDefinition.Kind.MATERIALIZED_TABLE
                    || source.partitionKeys() == null
                    || source.partitionKeys().isEmpty()) {
                continue;
            }
            Map<String, String> mapping = mapping(plan, source, table.partitionKeys(), tokens);
            if (mapping != null) {
                mapped.put(source.table(), mapping);
            }
        }
        return mapped;
    }

    /**
     * The table's partition columns to the input's, when every read of the input is filtered on
     * each; else null.
     */
    private static Map<String, String> mapping(
            String plan,
            TableDefinition.SourceTable source,
            List<String> partitionKeys,
            List<String> tokens) {
        TableId id = TableId.of(source.table());
        Map<String, String> mapping = null;
        for (String line : plan.lines().toList()) {
            Matcher scan = SCAN.matcher(line.strip().replaceFirst("^[\\s:+\\-]*", ""));
            if (!scan.find()
                    || !scan.group(2).equals(id.database())
                    || !scan.group(3).equals(id.name())) {
                continue;
            }
            Map<String, String> read = new LinkedHashMap<>();
            for (int i = 0; i < partitionKeys.size(); i++) {
                String from = filteredColumn(scan.group(4), source.partitionKeys(), tokens.get(i));
                if (from == null) {
                    return null; // this read takes every partition of the input
                }
                read.put(partitionKeys.get(i), from);
            }
            if (mapping != null && !mapping.equals(read)) {
                return null;
            }
            mapping = read;
        }
        return mapping;
    }

    /** The input partition column the scan's pushed filter equates with the probe value. */
    private static String filteredColumn(
            String scanAttributes, List<String> inputPartitionKeys, String token) {
        for (String key : inputPartitionKeys) {
            if (Pattern.compile("=\\(" + Pattern.quote(key) + ", [^)]*?" + Pattern.quote(token))
                    .matcher(scanAttributes)
                    .find()) {
                return key;
            }
        }
        return null;
    }

    /** A value no real partition holds, and how Flink prints it in a plan. */
    private record Probe(String literal, String token) {
        static Probe of(String type, int index) {
            String base = type.replaceAll("\\(.*", "").strip().toUpperCase();
            return switch (base) {
                case "STRING", "VARCHAR", "CHAR" ->
                        new Probe("'__mt_probe_" + index + "'", "'__mt_probe_" + index + "'");
                case "INT", "INTEGER", "BIGINT" ->
                        new Probe(
                                String.valueOf(987_654_320 + index),
                                String.valueOf(987_654_320 + index));
                case "DATE" ->
                        new Probe("DATE '1901-02-0" + (index + 1) + "'", "1901-02-0" + (index + 1));
                default -> null;
            };
        }
    }
}
