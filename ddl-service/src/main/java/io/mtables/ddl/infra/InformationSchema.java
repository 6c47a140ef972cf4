package io.mtables.ddl.infra;

import io.mtables.ddl.audit.AuditTable;
import io.mtables.ddl.history.RefreshHistoryTable;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Answers {@code SELECT ... FROM information_schema.materialized_tables} and {@code
 * information_schema.table_dependencies} (joined or not) with {@link InMemorySql} over the current
 * rows.
 */
public final class InformationSchema {

    /** The columns of {@code information_schema.materialized_tables}, in order. */
    public static final List<ResultColumn> COLUMNS =
            List.of(
                    new ResultColumn("table_name", "STRING"),
                    new ResultColumn("refresh_mode", "STRING"),
                    new ResultColumn("freshness", "STRING"),
                    new ResultColumn("status", "STRING"),
                    new ResultColumn("definition_version", "BIGINT"),
                    new ResultColumn("last_refresh", "TIMESTAMP"),
                    new ResultColumn("next_refresh", "TIMESTAMP"),
                    new ResultColumn("job_id", "STRING"),
                    new ResultColumn("job_running_time", "BIGINT"),
                    new ResultColumn("measured_lag", "BIGINT"),
                    new ResultColumn("data_timestamp", "TIMESTAMP"),
                    new ResultColumn("load_progress", "DOUBLE"),
                    new ResultColumn("load_time_left", "BIGINT"),
                    new ResultColumn("rebuild_progress", "DOUBLE"),
                    new ResultColumn("rebuild_time_left", "BIGINT"),
                    new ResultColumn("refresh_progress", "DOUBLE"),
                    new ResultColumn("refresh_time_left", "BIGINT"),
                    new ResultColumn("snapshot_progress", "DOUBLE"),
                    new ResultColumn("snapshot_time_left", "BIGINT"));

    /**
     * The columns of {@code information_schema.table_dependencies}: one row per table a
     * materialized table reads.
     */
    public static final List<ResultColumn> DEPENDENCY_COLUMNS =
            List.of(
                    new ResultColumn("table_name", "STRING"),
                    new ResultColumn("upstream_table", "STRING"),
                    new ResultColumn("upstream_kind", "STRING"),
                    new ResultColumn("upstream_version", "BIGINT"));

    private static final Pattern QUERY = Pattern.compile("(?is)^\\s*(SELECT|WITH|VALUES|\\()");
    private static final Pattern MENTIONS = Pattern.compile("(?i)\\binformation_schema\\b");

    private InformationSchema() {}

    /**
     * Whether {@code statement} is a query that reads information_schema: Calcite answers it, not
     * Flink.
     */
    public static boolean isQueryOver(String statement) {
        return QUERY.matcher(statement).find() && MENTIONS.matcher(statement).find();
    }

    /**
     * Runs {@code query} over {@code rows}, with no dependencies.
     *
     * @param rows one array per materialized table, values in the order of {@link #COLUMNS}
     *     (timestamps as epoch milliseconds)
     */
    public static InMemorySql.QueryRows query(String query, List<Object[]> rows) {
        return query(query, rows, List.of(), table -> List.of(), principal -> List.of());
    }

    /**
     * Runs {@code query} over both tables.
     *
     * @param rows one array per materialized table, values in the order of {@link #COLUMNS}
     *     (timestamps as epoch milliseconds)
     * @param dependencies one array per table read, values in the order of {@link
     *     #DEPENDENCY_COLUMNS}
     * @param history the refresh history's rows (in {@link
     *     io.mtables.ddl.history.RefreshHistoryTable#COLUMNS} order), of one table when the query
     *     fixes {@code table_name}, read only when queried
     * @param audit the audit records the caller may read (in {@link AuditTable#COLUMNS} order), of
     *     one principal when the query fixes {@code principal}, read only when queried
     */
    public static InMemorySql.QueryRows query(
            String query,
            List<Object[]> rows,
            List<Object[]> dependencies,
            Function<Optional<String>, List<Object[]>> history) {
        return query(query, rows, dependencies, history, principal -> List.of());
    }

    /** Runs {@code query} over every table, the audit's rows included. */
    public static InMemorySql.QueryRows query(
            String query,
            List<Object[]> rows,
            List<Object[]> dependencies,
            Function<Optional<String>, List<Object[]>> history,
            Function<Optional<String>, List<Object[]>> audit) {
        return PREPARED.query(
                query,
                tables(rows, dependencies, history, audit),
                "information_schema query",
                "SELECT <columns of "
                        + COLUMNS.stream().map(ResultColumn::name).toList()
                        + "> FROM information_schema.materialized_tables, of "
                        + DEPENDENCY_COLUMNS.stream().map(ResultColumn::name).toList()
                        + " FROM information_schema.table_dependencies, or of "
                        + RefreshHistoryTable.COLUMNS.stream()
                                .map(InMemorySql.Column::name)
                                .toList()
                        + " FROM information_schema.refresh_history, or of "
                        + AuditTable.COLUMNS.stream().map(InMemorySql.Column::name).toList()
                        + " FROM information_schema.audit [WHERE ...] [ORDER BY ...] [LIMIT n]");
    }

    /** Each query shape planned and compiled once: most of a query's time otherwise. */
    private static final PreparedQueries PREPARED =
            new PreparedQueries(
                    tables(List.of(), List.of(), table -> List.of(), principal -> List.of()));

    private static List<InMemorySql.Source> tables(
            List<Object[]> rows,
            List<Object[]> dependencies,
            Function<Optional<String>, List<Object[]>> history,
            Function<Optional<String>, List<Object[]>> audit) {
        return List.of(
                new InMemorySql.Table(
                        List.of("information_schema", "materialized_tables"),
                        columns(COLUMNS),
                        rows),
                new InMemorySql.Table(
                        List.of("information_schema", "table_dependencies"),
                        columns(DEPENDENCY_COLUMNS),
                        dependencies),
                new InMemorySql.LazyTable(
                        List.of("information_schema", "refresh_history"),
                        RefreshHistoryTable.COLUMNS,
                        history),
                new InMemorySql.LazyTable(
                        List.of("information_schema", "audit"), AuditTable.COLUMNS, audit));
    }

    /** For tests: the query shapes prepared now. */
    static List<String> preparedShapes() {
        return PREPARED.preparedShapes();
    }

    private static List<InMemorySql.Column> columns(List<ResultColumn> columns) {
        List<InMemorySql.Column> result = new ArrayList<>();
        for (ResultColumn column : columns) {
            SqlTypeName type =
                    switch (column.type()) {
                        case "BIGINT" -> SqlTypeName.BIGINT;
                        case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
                        case "DOUBLE" -> SqlTypeName.DOUBLE;
                        default -> SqlTypeName.VARCHAR;
                    };
            result.add(
                    new InMemorySql.Column(
                            column.name(), type, !column.name().equals("table_name")));
        }
        return result;
    }
}
