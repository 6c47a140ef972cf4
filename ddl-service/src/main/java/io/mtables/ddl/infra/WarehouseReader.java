package io.mtables.ddl.infra;

import io.mtables.ddl.domain.StatementException;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.SwitchOverNames;
import io.mtables.schemas.catalog.TableId;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.Table;
import org.eclipse.microprofile.config.Config;

/**
 * Reads the latest snapshot of a materialized table from the Paimon warehouse with Paimon's own
 * API, as rows {@link InMemorySql} can query. Meant for looking at a table, not for analytics over
 * large ones: the whole snapshot is read (Flink SQL or any Paimon reader pointed at the warehouse
 * serves those).
 */
public class WarehouseReader {

    /** The reason of a read refused past {@code mt.ddl.read-max-rows} or its bytes. */
    public static final String RESULT_TOO_LARGE = "ResultTooLarge";

    private final Warehouse warehouse;
    private final ReadLimits limits;
    private Catalog catalog;

    /**
     * @param limits the most rows, and bytes of them, one read takes from a table's snapshot; past
     *     them the read is refused ({@value #RESULT_TOO_LARGE})
     */
    public WarehouseReader(Warehouse warehouse, ReadLimits limits) {
        this.warehouse = warehouse;
        this.limits = limits;
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

    /** The most one read takes (mt.ddl.read-max-rows, mt.ddl.read-max-bytes). */
    public ReadLimits limits() {
        return limits;
    }

    /** Where it reads. */
    public Warehouse location() {
        return warehouse;
    }

    /**
     * The rows of {@code table} (catalog.database.name) registered under {@code paths}; empty when
     * it has no data yet. {@code version} is the table's definition version: in the moment between
     * a switch-over's two renames the table's name names no table, and its staged table of that
     * version holds the answer. A read that a switch-over moved or dropped files under (the table
     * gone from under its name, a file not found) is read again, by name, up to {@link #ATTEMPTS}
     * times: the renames take milliseconds on a local disk or HDFS, longer on an object store.
     */
    public Optional<List<InMemorySql.Table>> read(
            String table, long version, List<List<String>> paths) {
        return read(table, version, paths, PushedDown.NOTHING);
    }

    /**
     * The rows of {@code table} that {@code pushed} selects (the query still applies all of its
     * WHERE to them); otherwise as {@link #read(String, long, List)}.
     */
    public Optional<List<InMemorySql.Table>> read(
            String table, long version, List<List<String>> paths, PushedDown pushed) {
        return attempts(
                table,
                catalog -> {
                    Lookup lookup = lookUp(catalog, table, version);
                    if (lookup.absent()) {
                        return Optional.empty();
                    }
                    if (lookup.table() == null) {
                        return null; // between the renames: look again
                    }
                    Table found = lookup.table();
                    String uuid = found.uuid(); // before the read: the table it read from
                    Optional<Long> snapshot = found.latestSnapshot().map(Snapshot::id);
                    List<InMemorySql.Table> tables =
                            SnapshotRows.read(table, found, paths, pushed, limits);
                    boolean answer =
                            !tables.get(0).rows().isEmpty()
                                    || unchanged(catalog, lookup.name(), uuid, snapshot);
                    return answer ? Optional.of(tables) : null;
                },
                null);
    }

    /** The reason of a read that failed part way, its files removed under it. */
    public static final String READ_FAILED = "ReadFailed";

    /** The reason of a page asked for after its table or snapshot went. */
    public static final String PAGE_EXPIRED = "PageExpired";

    /**
     * A cursor over the rows {@code scan} selects from {@code table} (as {@link #read(String, long,
     * List)} finds it), from {@code from}: the latest snapshot, or the one an earlier page read.
     * Empty when there is no Paimon table yet, or when the WHERE cannot all go into Paimon's read:
     * the query reads the table as {@link #read(String, long, List, PushedDown)} does then.
     */
    public Optional<RowCursor> open(String table, long version, PlainScan scan, ScanPosition from) {
        return attempts(
                table,
                catalog -> {
                    Lookup lookup = lookUp(catalog, table, version);
                    if (lookup.absent()) {
                        if (!from.isStart()) {
                            throw pageExpired(table, "the table is gone");
                        }
                        return Optional.empty();
                    }
                    if (lookup.table() == null) {
                        return null; // between the renames: look again
                    }
                    return openCursor(catalog, table, lookup, scan, from);
                },
                // The snapshot a page token names expired, or its files went: not again.
                from.isStart()
                        ? null
                        : () ->
                                pageExpired(
                                        table,
                                        "its snapshot " + from.snapshot() + " cannot be read"));
    }

    /** A cursor over the table {@code lookup} found, or null when it moved under the read. */
    private Optional<RowCursor> openCursor(
            Catalog catalog, String table, Lookup lookup, PlainScan scan, ScanPosition from)
            throws Exception {
        Table found = lookup.table();
        PushedDown.Filter filter = scan.pushed().filter(found.rowType());
        if (!filter.exact()
                || scan.columns().stream()
                        .anyMatch(column -> found.rowType().getFieldIndex(column) < 0)) {
            return Optional.empty(); // the query engine's to read
        }
        if (!from.isStart() && !from.uuid().equals(found.uuid())) {
            throw pageExpired(table, "its query changed since the first page was read");
        }
        Optional<Long> latest = found.latestSnapshot().map(Snapshot::id);
        long snapshot = from.isStart() ? latest.orElse(-1L) : from.snapshot();
        RowCursor cursor =
                new PaimonRowCursor(
                        snapshot < 0 ? found : PaimonRowCursor.pinned(found, snapshot),
                        snapshot,
                        scan,
                        filter,
                        from);
        try {
            if (from.isStart()
                    && !cursor.hasNext()
                    && !unchanged(catalog, lookup.name(), found.uuid(), latest)) {
                cursor.close();
                return null; // moved under the read: what it found is no answer
            }
            return Optional.of(cursor);
        } catch (Exception | Error e) {
            cursor.close();
            throw e;
        }
    }

    /** One try of a read over the warehouse's catalog: its answer, or null to look again. */
    private interface Attempt<T> {
        T run(Catalog catalog) throws Exception;
    }

    /**
     * {@code attempt}, tried again after a pause while the table moves under it (a switch-over
     * between its renames, a file moved or dropped, the catalog failing: then opened afresh) up to
     * {@link #ATTEMPTS} times. A refusal is final, and so is a failure when the read was
     * interrupted (mt.ddl.read-timeout) or when {@code finalFailure} is given.
     */
    private <T> T attempts(
            String table, Attempt<T> attempt, Supplier<StatementException> finalFailure) {
        Exception moved = null;
        for (int tried = 0; tried < ATTEMPTS; tried++) {
            if (tried > 0) {
                pause();
            }
            Catalog catalog = null;
            try {
                catalog = catalog();
                T answer = attempt.run(catalog);
                if (answer != null) {
                    return answer;
                }
            } catch (StatementException refused) {
                throw refused; // too large, or expired: reading again would not change it
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw cannotRead(table, e); // stopped (mt.ddl.read-timeout): not again
                }
                if (finalFailure != null) {
                    throw finalFailure.get();
                }
                moved = e; // a file moved or dropped under the read, or the read failed: again
                forgetCatalog(catalog); // and open the catalog afresh, in case it is what failed
            }
        }
        throw cannotRead(
                table,
                moved != null
                        ? moved
                        : new IllegalStateException(
                                "its Paimon table kept moving for " + ATTEMPTS + " reads"));
    }

    private static StatementException pageExpired(String table, String why) {
        return StatementException.invalid(
                PAGE_EXPIRED,
                "The next page of this SELECT over " + table + " cannot be read: " + why + ".",
                "the SELECT again from its first page (without a page token)");
    }

    /**
     * The warehouse's catalog, opened once rather than per read (an object store's client is slow
     * to make), without Paimon's cache of tables: a switch-over renames tables under it, and a read
     * looks for the names as they are now.
     */
    private synchronized Catalog catalog() {
        if (catalog == null) {
            Map<String, String> options = new LinkedHashMap<>(warehouse.catalogOptions());
            options.put("cache-enabled", "false");
            catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)));
        }
        return catalog;
    }

    /** Forgets {@code failed} if it is still the catalog reads use (another read may have). */
    private synchronized void forgetCatalog(Catalog failed) {
        if (catalog != null && catalog == failed) {
            try {
                catalog.close();
            } catch (Exception e) {
                // a catalog that failed may fail to close; a new one is opened either way
            }
            catalog = null;
        }
    }

    /** Reads of a table whose files move under it before one is given up. */
    static final int ATTEMPTS = 20;

    private static final long PAUSE_MILLIS = 50;

    /**
     * The Paimon table the name stands for now: the table under its name, else its staged table of
     * {@code version}. Neither, while the retired table or the name itself shows up again, is a
     * switch-over between its renames ({@code table == null}); neither and nothing else is a table
     * not created yet ({@code absent}).
     */
    private static Lookup lookUp(Catalog catalog, String table, long version) {
        TableId id = TableId.of(table);
        Identifier main = Identifier.create(id.database(), id.name());
        Identifier staged =
                Identifier.create(
                        id.database(), TableId.of(SwitchOverNames.staged(table, version)).name());
        for (Identifier name : List.of(main, staged)) {
            try {
                return new Lookup(name, catalog.getTable(name), false);
            } catch (Catalog.TableNotExistException next) {
                // the next name
            }
        }
        Identifier retired =
                Identifier.create(id.database(), TableId.of(SwitchOverNames.retired(table)).name());
        boolean switching = exists(catalog, retired) || exists(catalog, main);
        return new Lookup(main, null, !switching);
    }

    private record Lookup(Identifier name, Table table, boolean absent) {}

    /**
     * Whether a read that found no rows saw the table as it is: the same table (its uuid) still
     * under the name it was found by, at the same snapshot. A table renamed away under the read has
     * no snapshot left at its old path, and its read finds nothing.
     */
    private static boolean unchanged(
            Catalog catalog, Identifier name, String uuid, Optional<Long> snapshot)
            throws Catalog.TableNotExistException {
        if (!exists(catalog, name)) {
            return false;
        }
        Table now = catalog.getTable(name);
        return now.uuid().equals(uuid) && now.latestSnapshot().map(Snapshot::id).equals(snapshot);
    }

    private static boolean exists(Catalog catalog, Identifier name) {
        try {
            catalog.getTable(name);
            return true;
        } catch (Catalog.TableNotExistException e) {
            return false;
        }
    }

    private IllegalStateException cannotRead(String table, Exception e) {
        return new IllegalStateException(
                "cannot read " + table + " from the warehouse " + warehouse + ": " + e.getMessage(),
                e);
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the warehouse", e);
        }
    }
}
