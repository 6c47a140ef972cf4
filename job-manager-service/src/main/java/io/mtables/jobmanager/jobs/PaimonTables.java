package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.jboss.logging.Logger;

/**
 * The materialized tables' Paimon tables in the warehouse, by catalog operations (no job): each
 * created for its query or kept for a new one that only appends columns, a new query's table staged
 * beside it and swapped in, dropped; whose query wrote each ({@link QueryState}), and never one
 * mtables did not create replaced or dropped. Used on the control thread only.
 */
public class PaimonTables {

    private static final Logger LOG = Logger.getLogger(PaimonTables.class);

    private final Warehouse warehouse;
    private TableEnvironment catalogEnvironment;

    public PaimonTables(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    /**
     * Creates the table's Paimon table if it does not exist, or creates it anew (empty) when
     * another query wrote it: its rows and columns belong to that query. A catalog operation, no
     * job.
     *
     * @return whether the table was created, empty
     */
    public boolean ensureTable(TableDefinition definition, RefreshPlan plan) {
        TableEnvironment env = catalogEnvironment();
        env.executeSql(JobSql.createDatabase(definition.table()));
        TableId id = TableId.of(definition.table());
        var catalog = env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow();
        ObjectPath path = new ObjectPath(id.database(), id.name());
        if (catalog.tableExists(path)) {
            String writtenBy = writtenBy(catalog, path, definition.table());
            if (writtenBy == null) {
                throw notOurs(definition.table());
            }
            if (QueryState.fingerprint(definition).equals(writtenBy)) {
                return false;
            }
            if (plan.mode() == RefreshPlan.Mode.FULL
                    && evolveInPlace(env, catalog, path, definition, plan)) {
                return false;
            }
            env.executeSql("DROP TABLE " + JobSql.paimonName(definition.table()));
        }
        env.executeSql(JobSql.createTable(definition, plan));
        return true;
    }

    /**
     * A FULL table's new query keeps the table readers read: its rows stay until the next refresh
     * overwrites them with the new query's, the columns it adds appended (NULL until then) and the
     * fingerprint set. Only when the table's key and columns so far are the new ones too (the
     * schema rules let a query only append nullable columns); false when they are not.
     */
    private boolean evolveInPlace(
            TableEnvironment env,
            Catalog catalog,
            ObjectPath path,
            TableDefinition definition,
            RefreshPlan plan) {
        if (ColumnAppends.append(env, catalog, path, definition, plan).isEmpty()) {
            return false;
        }
        markWrittenBy(env, definition.table(), QueryState.fingerprint(definition));
        LOG.infof("%s keeps its rows for its new query until the next refresh", definition.table());
        return true;
    }

    /** Records in the table's options which query its rows are ({@link QueryState}). */
    private static void markWrittenBy(TableEnvironment env, String table, String fingerprint) {
        env.executeSql(
                "ALTER TABLE "
                        + JobSql.paimonName(table)
                        + " SET ("
                        + JobSql.literal(QueryState.TABLE_OPTION)
                        + " = "
                        + JobSql.literal(fingerprint)
                        + ")");
    }

    /**
     * Records that the table's rows are those of the query with this fingerprint: a table whose
     * rewrite for a restored job was given up is marked its old query's again, so a switch-over
     * replaces it.
     */
    public void markWrittenBy(String table, String fingerprint) {
        TableEnvironment env = catalogEnvironment();
        markWrittenBy(env, table, fingerprint);
    }

    /**
     * Appends the columns the new query adds to the table (NULL in its rows) before a job restored
     * from the old query's state writes it. The columns it had before.
     *
     * @throws IllegalStateException when the table's key or columns are not the new query's first
     */
    public List<String> appendColumns(TableDefinition definition, RefreshPlan plan) {
        TableEnvironment env = catalogEnvironment();
        TableId id = TableId.of(definition.table());
        return ColumnAppends.append(
                        env,
                        env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow(),
                        new ObjectPath(id.database(), id.name()),
                        definition,
                        plan)
                .orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "the table's key or columns are not the new query's"
                                                + " first ones"));
    }

    /**
     * The fingerprint of the query that wrote the table's Paimon table ({@link QueryState}); empty
     * when there is no such table.
     */
    public Optional<String> writtenBy(String table) {
        TableEnvironment env = catalogEnvironment();
        TableId id = TableId.of(table);
        var catalog = env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow();
        ObjectPath path = new ObjectPath(id.database(), id.name());
        if (!catalog.tableExists(path)) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(
                    catalog.getTable(path).getOptions().get(QueryState.TABLE_OPTION));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Paimon table of " + table, e);
        }
    }

    /**
     * Creates the staged table a new query fills beside the table's own ({@link
     * JobSql#stagedTable}), empty: one left by an earlier try is dropped first.
     */
    public void createStaged(TableDefinition definition, RefreshPlan plan) {
        TableEnvironment env = catalogEnvironment();
        env.executeSql(JobSql.createDatabase(definition.table()));
        String staged = JobSql.stagedTable(definition.table(), definition.version());
        env.executeSql("DROP TABLE IF EXISTS " + JobSql.paimonName(staged));
        env.executeSql(JobSql.createTable(definition, plan, staged));
    }

    /**
     * The switch-over's renames: the table's Paimon table out of the way, then the staged table of
     * {@code version} under the table's name, then the replaced one dropped. Each step looks first,
     * so a switch cut short (a crash, a failed rename) is finished by calling it again.
     *
     * @return how long the table's name named no table, in nanoseconds (0 when a previous call
     *     renamed it)
     */
    public long swapInStaged(String table, long version) {
        TableEnvironment env = catalogEnvironment();
        var catalog = env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow();
        TableId id = TableId.of(table);
        ObjectPath main = new ObjectPath(id.database(), id.name());
        ObjectPath staged =
                new ObjectPath(
                        id.database(), TableId.of(JobSql.stagedTable(table, version)).name());
        ObjectPath retired =
                new ObjectPath(id.database(), TableId.of(JobSql.retiredTable(table)).name());
        long gap = 0;
        if (catalog.tableExists(main) && writtenBy(catalog, main, table) == null) {
            throw notOurs(table); // never renamed away and dropped as the retired table
        }
        try {
            if (catalog.tableExists(staged)) {
                if (catalog.tableExists(retired)) {
                    catalog.dropTable(retired, true);
                }
                long from = System.nanoTime();
                if (catalog.tableExists(main)) {
                    catalog.renameTable(main, retired.getObjectName(), false);
                }
                catalog.renameTable(staged, id.name(), false);
                gap = System.nanoTime() - from;
            }
            catalog.dropTable(retired, true);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot put the new query's table in place of " + table + ": " + e.getMessage(),
                    e);
        }
        return gap;
    }

    /**
     * Drops the staged table of {@code version}, if there is one (a switch-over given up or
     * replaced).
     */
    public void dropStaged(String table, long version) {
        TableEnvironment env = catalogEnvironment();
        env.executeSql(
                "DROP TABLE IF EXISTS " + JobSql.paimonName(JobSql.stagedTable(table, version)));
    }

    /**
     * Drops the table's Paimon table and its files, if it exists.
     *
     * @throws NotOurTableException when a Paimon table of that name exists that mtables did not
     *     create: it is left as it is
     */
    public void dropTable(String table) {
        TableEnvironment env = catalogEnvironment();
        TableId id = TableId.of(table);
        var catalog = env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow();
        ObjectPath path = new ObjectPath(id.database(), id.name());
        if (catalog.tableExists(path) && writtenBy(catalog, path, table) == null) {
            throw notOurs(table);
        }
        env.executeSql("DROP TABLE IF EXISTS " + JobSql.paimonName(table));
    }

    /**
     * A Paimon table in the warehouse under a materialized table's name that mtables did not create
     * (another writer's, or ddl-service's own refresh history): never replaced or dropped.
     */
    public static final class NotOurTableException extends IllegalStateException {
        NotOurTableException(String message) {
            super(message);
        }
    }

    private static NotOurTableException notOurs(String table) {
        return new NotOurTableException(
                "the Paimon table "
                        + JobSql.paimonName(table)
                        + " was not created by mtables (it has no '"
                        + QueryState.TABLE_OPTION
                        + "' option, which every table the job manager creates has): it is"
                        + " neither replaced nor dropped; move it away, or drop it yourself");
    }

    /**
     * The query the table's rows are of ({@link QueryState#TABLE_OPTION}); null for a table mtables
     * did not create.
     */
    private static String writtenBy(Catalog catalog, ObjectPath path, String table) {
        try {
            return catalog.getTable(path).getOptions().get(QueryState.TABLE_OPTION);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Paimon table of " + table, e);
        }
    }

    /** The columns of the table's Paimon table, in order, without a synthetic key. */
    public List<String> columns(String table) {
        TableEnvironment env = catalogEnvironment();
        TableId id = TableId.of(table);
        try {
            return env
                    .getCatalog(JobSql.WAREHOUSE_CATALOG)
                    .orElseThrow()
                    .getTable(new ObjectPath(id.database(), id.name()))
                    .getUnresolvedSchema()
                    .getColumns()
                    .stream()
                    .map(Schema.UnresolvedColumn::getName)
                    .filter(name -> !name.equals(SyntheticKey.COLUMN))
                    .toList();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Paimon table of " + table, e);
        }
    }

    /**
     * The batch environment the catalog operations run in, the warehouse catalog declared: kept
     * between them, as creating one (Flink's factories found again, the Paimon catalog opened) for
     * each was about 100 ms of the 0.8-1.2 s from a plan to its job submitted (bin/bench
     * control-plane, the job manager's log). Nothing else is declared in it, and its catalog caches
     * nothing ({@link JobSql#createCatalog}), so each use sees the warehouse as it is. Used on the
     * control thread only, as the rest of this class.
     */
    private TableEnvironment catalogEnvironment() {
        if (catalogEnvironment == null) {
            TableEnvironment env =
                    TableEnvironment.create(
                            EnvironmentSettings.newInstance()
                                    .withConfiguration(new Configuration())
                                    .inBatchMode()
                                    .build());
            env.executeSql(JobSql.createCatalog(warehouse));
            catalogEnvironment = env;
        }
        return catalogEnvironment;
    }
}
