package io.mtables.jobmanager.jobs;

import io.mtables.planning.EmptyInputRow;
import io.mtables.planning.PaimonTables;
import io.mtables.planning.UnionBranches;
import io.mtables.planning.Warehouse;
import io.mtables.planning.WrittenRows;
import io.mtables.schemas.catalog.SwitchOverNames;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.flink.JobNames;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SQL of a table's jobs: the Paimon table it writes, the sources it reads (declared from the
 * definitions the events carry, in Flink's in-memory catalog under their own names, so the expanded
 * query runs as written), and the INSERT itself.
 */
public final class JobSql {

    /**
     * The name of the Paimon catalog in every job; users see the same tables under any name they
     * give the warehouse.
     */
    public static final String WAREHOUSE_CATALOG = "mt_warehouse";

    /** Paimon's option for the data files' format, and ours when a table does not set it. */
    static final String FILE_FORMAT = "file.format";

    static final String DEFAULT_FILE_FORMAT = "orc";

    private JobSql() {}

    /**
     * The streaming job's name ({@link JobNames}), by which a restarted job manager recognises its
     * jobs on the cluster and the query they run.
     */
    public static String streamingJobName(TableDefinition definition) {
        return JobNames.streaming(
                definition.table(), definition.version(), QueryState.fingerprint(definition));
    }

    /** The job name of one FULL refresh ({@link JobNames}). */
    public static String refreshJobName(TableDefinition definition, String refreshId) {
        return JobNames.refresh(definition.table(), definition.version(), refreshId);
    }

    /**
     * The warehouse catalog, without Paimon's metadata cache: a kept environment must see a table
     * dropped and created anew.
     */
    public static String createCatalog(Warehouse warehouse) {
        StringBuilder options = new StringBuilder("'type' = 'paimon'");
        warehouse
                .catalogOptions()
                .forEach(
                        (key, value) ->
                                options.append(", ")
                                        .append(literal(key))
                                        .append(" = ")
                                        .append(literal(value)));
        return "CREATE CATALOG "
                + quote(WAREHOUSE_CATALOG)
                + " WITH ("
                + options
                + ", 'cache-enabled' = 'false')";
    }

    /**
     * The Paimon table's name in the job: the table's database and name in the warehouse catalog.
     */
    public static String paimonName(String table) {
        TableId id = TableId.of(table);
        return quote(WAREHOUSE_CATALOG) + "." + quote(id.database()) + "." + quote(id.name());
    }

    /**
     * The Paimon table a new query fills beside the table's own until the switch-over ({@link
     * SwitchOverNames#staged}).
     */
    public static String stagedTable(String table, long version) {
        return SwitchOverNames.staged(table, version);
    }

    /**
     * The replaced Paimon table's name between the switch-over's two renames ({@link
     * SwitchOverNames#retired}).
     */
    public static String retiredTable(String table) {
        return SwitchOverNames.retired(table);
    }

    public static String createDatabase(String table) {
        return "CREATE DATABASE IF NOT EXISTS "
                + quote(WAREHOUSE_CATALOG)
                + "."
                + quote(TableId.of(table).database());
    }

    /**
     * The Paimon table of a materialized table: its columns, the plan's key (with the partition
     * columns, which Paimon requires in a primary key), partitions, buckets and options.
     */
    public static String createTable(TableDefinition definition, RefreshPlan plan) {
        return createTable(definition, plan, definition.table());
    }

    /**
     * The Paimon table of a materialized table, under the name {@code target} (the table's own, or
     * its staged table).
     */
    public static String createTable(TableDefinition definition, RefreshPlan plan, String target) {
        Map<String, String> options = new TreeMap<>(definition.options());
        options.put(QueryState.TABLE_OPTION, QueryState.fingerprint(definition));
        options.put(OperatorUids.TABLE_OPTION, OperatorUids.BY_COMPUTATION);
        options.put(OperatorUids.WRITER_GENERATION, "v" + definition.version());
        // ORC unless the table says otherwise: Paimon 1.3's Parquet reader builds a Hadoop
        // configuration, parsing core-default.xml, for every file it opens (apache/paimon#7080),
        // which was most of a 90-day FULL refresh's read in bin/bench refresh-cost; its ORC reader
        // builds one per table.
        options.putIfAbsent(FILE_FORMAT, DEFAULT_FILE_FORMAT);
        if (definition.distribution() != null) {
            if (definition.distribution().buckets() != null) {
                options.put("bucket", String.valueOf(definition.distribution().buckets()));
            }
            if (!definition.distribution().keys().isEmpty()) {
                options.put("bucket-key", String.join(",", definition.distribution().keys()));
            }
        }
        return PaimonTables.createTable(
                paimonName(target),
                definition.columns(),
                definition.partitionKeys(),
                primaryKey(definition, plan),
                options);
    }

    /**
     * The Paimon primary key: the plan's key and the partition columns; empty for an append table.
     */
    public static List<String> primaryKey(TableDefinition definition, RefreshPlan plan) {
        return PaimonTables.primaryKey(plan, definition.partitionKeys());
    }

    /** The statements that declare the sources in the job's default catalog. */
    public static List<String> declareSources(TableDefinition definition) {
        return declareSources(definition, Map.of());
    }

    /**
     * The streaming job's sources: the table's, and the one-row table of a global aggregate that
     * holds its empty-input row.
     */
    public static List<String> declareSources(TableDefinition definition, RefreshPlan plan) {
        List<String> statements = new ArrayList<>(declareSources(definition));
        if (holdsEmptyInputRow(plan)) {
            statements.add(EmptyInputRow.DECLARE_ONE_ROW);
        }
        return statements;
    }

    private static boolean holdsEmptyInputRow(RefreshPlan plan) {
        return plan.upsertKey() != null && plan.upsertKey().holdsEmptyInputRow();
    }

    /**
     * The statements that declare the sources; a materialized table in {@code pinned} is read at
     * that snapshot id (Paimon's {@code scan.snapshot-id}), so a refresh reads exactly what it
     * records.
     */
    public static List<String> declareSources(
            TableDefinition definition, Map<String, Long> pinned) {
        List<String> statements = new ArrayList<>();
        for (var source : definition.sources()) {
            TableId id = TableId.of(source.table());
            statements.add("CREATE DATABASE IF NOT EXISTS " + id.quotedDatabase());
            if (source.kind() == TableDefinition.Kind.MATERIALIZED_TABLE) {
                // Another materialized table is read from its Paimon table: in a stream, its
                // changelog from the latest snapshot on; in a batch, its latest snapshot. Its own
                // columns only: a synthetic key column is storage, not data.
                String columns =
                        source.columns() == null
                                ? "*"
                                : String.join(
                                        ", ",
                                        source.columns().stream()
                                                .map(c -> quote(c.name()))
                                                .toList());
                String at =
                        pinned.containsKey(source.table())
                                ? " /*+ OPTIONS('scan.snapshot-id' = '"
                                        + pinned.get(source.table())
                                        + "') */"
                                : "";
                statements.add(
                        "CREATE VIEW "
                                + id.quoted()
                                + " AS SELECT "
                                + columns
                                + " FROM "
                                + paimonName(source.table())
                                + at);
            } else {
                statements.add(source.statement());
            }
        }
        return statements;
    }

    /**
     * The streaming job's INSERT; with a synthetic key, the job computes it after the query's
     * columns.
     */
    public static String insert(TableDefinition definition, RefreshPlan plan) {
        return insert(definition, plan, definition.table());
    }

    /**
     * The streaming job's INSERT into the Paimon table named {@code target} (the table's own, or
     * its staged table).
     */
    public static String insert(TableDefinition definition, RefreshPlan plan, String target) {
        String into = "INSERT INTO " + paimonName(target) + "\n";
        if (plan.upsertKey() == null
                || plan.upsertKey().origin() != RefreshPlan.UpsertKey.Origin.SYNTHETIC) {
            return into + definition.query().expanded();
        }
        if (plan.upsertKey().branches() != null) {
            return into + keyedBranches(definition, plan.upsertKey().branches());
        }
        if (holdsEmptyInputRow(plan)) {
            return into + EmptyInputRow.held(definition, plan.upsertKey().emptyInputRow());
        }
        return into
                + keyed(
                        definition,
                        definition.query().expanded(),
                        SyntheticKey.expression(plan.upsertKey().columns(), "`q`"));
    }

    /**
     * A UNION ALL with each branch keyed on its number and its own key: the key of a row is only
     * known inside its branch.
     */
    private static String keyedBranches(TableDefinition definition, List<List<String>> keys) {
        List<String> branches = UnionBranches.of(definition.query().expanded());
        if (branches.size() != keys.size()) {
            throw new IllegalStateException(
                    "the plan keys "
                            + keys.size()
                            + " UNION ALL branches, and "
                            + definition.table()
                            + "'s query has "
                            + branches.size());
        }
        List<String> keyed = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            keyed.add(
                    keyed(
                            definition,
                            branches.get(i),
                            SyntheticKey.branchExpression(i + 1, keys.get(i), "`q`")));
        }
        return String.join("\nUNION ALL\n", keyed);
    }

    /**
     * {@code query}'s rows with the synthetic key after the table's columns. The query's columns
     * are renamed to the table's, by position, as a UNION ALL names its branches' columns.
     */
    private static String keyed(TableDefinition definition, String query, String key) {
        List<String> names =
                definition.columns().stream().map(column -> quote(column.name())).toList();
        List<String> selected = new ArrayList<>(names.stream().map(name -> "`q`." + name).toList());
        selected.add(key + " AS " + quote(SyntheticKey.COLUMN));
        return "SELECT "
                + String.join(", ", selected)
                + " FROM (\n"
                + query
                + "\n) AS `q` ("
                + String.join(", ", names)
                + ")";
    }

    /**
     * The rows the old query wrote, with its columns, under the name a {@code writtenRows} rewrite
     * reads ({@link WrittenRows#WRITTEN}): a temporary view of the session.
     */
    public static String writtenView(String table, List<String> oldColumns) {
        return writtenView(table, oldColumns, null);
    }

    /**
     * The same, of the table's rows as Paimon's snapshot {@code snapshotId} holds them (null: as
     * the read finds them when it starts).
     */
    public static String writtenView(String table, List<String> oldColumns, Long snapshotId) {
        return "CREATE TEMPORARY VIEW "
                + quote(WrittenRows.WRITTEN)
                + " AS SELECT "
                + String.join(", ", oldColumns.stream().map(JobSql::quote).toList())
                + " FROM "
                + paimonName(table)
                + (snapshotId == null
                        ? ""
                        : " /*+ OPTIONS('scan.snapshot-id' = '" + snapshotId + "') */");
    }

    /**
     * Replaces the whole table with the rewrite of its rows into the new query's ({@code
     * writtenRows}), keyed as the streaming job keys its rows.
     */
    public static String rewriteWritten(
            TableDefinition definition, RefreshPlan plan, String writtenRows) {
        return rewriteWritten(definition, plan, writtenRows, definition.table());
    }

    /** The same into the Paimon table {@code target} (the table's own, or its staged table). */
    public static String rewriteWritten(
            TableDefinition definition, RefreshPlan plan, String writtenRows, String target) {
        String rows =
                plan.upsertKey() != null
                                && plan.upsertKey().origin()
                                        == RefreshPlan.UpsertKey.Origin.SYNTHETIC
                        ? keyed(
                                definition,
                                writtenRows,
                                SyntheticKey.expression(plan.upsertKey().columns(), "`q`"))
                        : writtenRows;
        return "INSERT OVERWRITE "
                + paimonName(target)
                + " /*+ OPTIONS('dynamic-partition-overwrite' = 'false') */\n"
                + rows;
    }

    /**
     * A FULL refresh of the whole table: every partition is replaced, also those the query no
     * longer produces.
     */
    public static String overwriteAll(TableDefinition definition) {
        return "INSERT OVERWRITE "
                + paimonName(definition.table())
                + " /*+ OPTIONS('dynamic-partition-overwrite' = 'false') */\n"
                + definition.query().expanded();
    }

    /**
     * A FULL refresh of one partition: only that partition is replaced, also when the query no
     * longer produces any row for it.
     */
    public static String overwritePartition(
            TableDefinition definition, Map<String, String> partition) {
        List<String> assignments = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        for (var entry : partition.entrySet()) {
            String type = typeOf(definition, entry.getKey());
            assignments.add(quote(entry.getKey()) + " = " + literal(entry.getValue()));
            conditions.add(
                    "`q`."
                            + quote(entry.getKey())
                            + " = CAST("
                            + literal(entry.getValue())
                            + " AS "
                            + type
                            + ")");
        }
        List<String> selected = new ArrayList<>();
        for (var column : definition.columns()) {
            if (!partition.containsKey(column.name())) {
                selected.add("`q`." + quote(column.name()));
            }
        }
        return "INSERT OVERWRITE "
                + paimonName(definition.table())
                + " PARTITION ("
                + String.join(", ", assignments)
                + ")\n"
                + "SELECT "
                + String.join(", ", selected)
                + " FROM (\n"
                + definition.query().expanded()
                + "\n) AS `q` WHERE "
                + String.join(" AND ", conditions);
    }

    /**
     * A FULL refresh of some partitions: the query's rows of those partitions replace them
     * (Paimon's dynamic partition overwrite); one the query no longer produces keeps its rows, so
     * the job manager empties it afterwards ({@link PaimonPartitions#empty}).
     */
    public static String overwritePartitions(
            TableDefinition definition, List<Map<String, String>> partitions) {
        List<String> alternatives = new ArrayList<>();
        for (var partition : partitions) {
            List<String> conditions = new ArrayList<>();
            for (var entry : new TreeMap<>(partition).entrySet()) {
                conditions.add(
                        "`q`."
                                + quote(entry.getKey())
                                + " = CAST("
                                + literal(entry.getValue())
                                + " AS "
                                + typeOf(definition, entry.getKey())
                                + ")");
            }
            alternatives.add("(" + String.join(" AND ", conditions) + ")");
        }
        List<String> selected =
                definition.columns().stream().map(column -> "`q`." + quote(column.name())).toList();
        return "INSERT OVERWRITE "
                + paimonName(definition.table())
                + " /*+ OPTIONS('dynamic-partition-overwrite' = 'true') */\n"
                + "SELECT "
                + String.join(", ", selected)
                + " FROM (\n"
                + definition.query().expanded()
                + "\n) AS `q` WHERE "
                + String.join(" OR ", alternatives);
    }

    private static String typeOf(TableDefinition definition, String column) {
        return definition.columns().stream()
                .filter(c -> c.name().equals(column))
                .map(TableDefinition.Column::type)
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        column + " is not a column of " + definition.table()));
    }

    static String quote(String identifier) {
        return TableId.quote(identifier);
    }

    static String literal(String value) {
        return PaimonTables.literal(value);
    }
}
