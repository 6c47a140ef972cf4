package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition.Distribution;
import io.mtables.schemas.catalog.TableDefinition.Freshness;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.catalog.TableId;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A materialized table's definition written back as one CREATE statement, clauses in Flink's order.
 * It is what a version of the table is stored as, and what an ALTER re-validates after changing one
 * part (freshness, options, query): every change goes through the same checks as a CREATE.
 *
 * @param table fully qualified identifier
 * @param primaryKey declared primary key columns
 * @param comment the COMMENT, or null
 * @param distribution DISTRIBUTED BY, or null
 * @param partitionKeys PARTITIONED BY columns
 * @param options WITH options, in the order to write them
 * @param freshness FRESHNESS, or null
 * @param refreshMode the declared mode; AUTO writes no clause
 * @param query the AS query as the user wrote it
 */
public record CanonicalStatement(
        String table,
        List<String> primaryKey,
        String comment,
        Distribution distribution,
        List<String> partitionKeys,
        Map<String, String> options,
        Freshness freshness,
        RefreshMode refreshMode,
        String query) {

    /** The statement text. */
    public String text() {
        StringBuilder sql =
                new StringBuilder("CREATE MATERIALIZED TABLE ").append(identifier(table));
        if (!primaryKey.isEmpty()) {
            sql.append("\n(PRIMARY KEY (").append(columns(primaryKey)).append(") NOT ENFORCED)");
        }
        if (comment != null) {
            sql.append("\nCOMMENT ").append(literal(comment));
        }
        if (distribution != null) {
            sql.append("\nDISTRIBUTED");
            if (!distribution.keys().isEmpty()) {
                sql.append(" BY ");
                if (distribution.kind() != null) {
                    sql.append(distribution.kind());
                }
                sql.append('(').append(columns(distribution.keys())).append(')');
            }
            if (distribution.buckets() != null) {
                sql.append(" INTO ").append(distribution.buckets()).append(" BUCKETS");
            }
        }
        if (!partitionKeys.isEmpty()) {
            sql.append("\nPARTITIONED BY (").append(columns(partitionKeys)).append(')');
        }
        if (!options.isEmpty()) {
            sql.append("\nWITH (")
                    .append(
                            options.entrySet().stream()
                                    .map(
                                            option ->
                                                    literal(option.getKey())
                                                            + " = "
                                                            + literal(option.getValue()))
                                    .collect(Collectors.joining(", ")))
                    .append(')');
        }
        if (freshness != null) {
            sql.append("\nFRESHNESS = INTERVAL '")
                    .append(freshness.interval())
                    .append("' ")
                    .append(freshness.unit());
        }
        if (refreshMode != null && refreshMode != RefreshMode.AUTO) {
            sql.append("\nREFRESH_MODE = ").append(refreshMode);
        }
        return sql.append("\nAS ").append(query).toString();
    }

    /** {@code a.b.c} as {@code `a`.`b`.`c`}. */
    public static String identifier(String qualified) {
        return TableId.of(qualified).quoted();
    }

    private static String columns(List<String> names) {
        return names.stream().map(CanonicalStatement::quote).collect(Collectors.joining(", "));
    }

    private static String quote(String name) {
        return TableId.quote(name);
    }

    private static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}
