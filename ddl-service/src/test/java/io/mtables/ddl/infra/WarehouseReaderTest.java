package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.domain.StatementException;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.SwitchOverNames;
import io.mtables.schemas.catalog.TableId;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ddl-service's SELECT reads a table by its name while the job manager switches it over (the two
 * renames of docs/evolution.md, then the old table dropped): every read finds the old answer or the
 * new one, never an empty table (QueryChangeAcrossServicesIT saw one read of a switched table empty
 * when the second look fell between the renames) and never an error.
 */
class WarehouseReaderTest {

    private static final String TABLE = "default_catalog.shop.totals";

    @TempDir Path dir;

    @Test
    void aReadDuringSwitchOversFindsTheOldAnswerOrTheNewOne() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        TableId id = TableId.of(TABLE);
        AtomicInteger version = new AtomicInteger(1);
        AtomicBoolean done = new AtomicBoolean();
        List<Throwable> switchFailures = new ArrayList<>();
        try (Catalog catalog = catalog(warehouse)) {
            catalog.createDatabase(id.database(), true);
            create(catalog, Identifier.create(id.database(), id.name()), 1);
        }
        Thread switcher =
                new Thread(
                        () -> {
                            try (Catalog catalog = catalog(warehouse)) {
                                while (!done.get()) {
                                    // The new version is defined before its switch-over.
                                    switchOver(catalog, id, version.incrementAndGet());
                                    Thread.sleep(100); // far more often than ALTERs come
                                }
                            } catch (Throwable e) {
                                switchFailures.add(e);
                            }
                        });
        switcher.start();
        WarehouseReader reader =
                new WarehouseReader(warehouse, new ReadLimits(1_000_000, Long.MAX_VALUE));
        List<String> path = List.of(id.catalog(), id.database(), id.name());
        int reads = 0;
        try {
            // Until 20 switch-overs and 20 reads happened side by side, however slow a loaded
            // machine makes each (a deadline only bounds a hang).
            for (long end = System.nanoTime() + 120_000_000_000L;
                    (version.get() <= 21 || reads <= 20)
                            && System.nanoTime() < end
                            && switcher.isAlive();
                    reads++) {
                var tables = reader.read(TABLE, version.get(), List.of(path));
                assertThat(tables).as("read %d: a table", reads).isPresent();
                assertThat(tables.get().get(0).rows()).as("read %d: its rows", reads).hasSize(3);
            }
        } finally {
            done.set(true);
            switcher.join();
        }
        assertThat(switchFailures).isEmpty();
        assertThat(version.get()).as("switch-overs during the reads").isGreaterThan(20);
        assertThat(reads).isGreaterThan(20);
    }

    @Test
    void aReadPastItsRowCapIsRefusedOnce() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        TableId id = TableId.of(TABLE);
        try (Catalog catalog = catalog(warehouse)) {
            catalog.createDatabase(id.database(), true);
            create(catalog, Identifier.create(id.database(), id.name()), 1); // three rows
        }
        List<List<String>> paths = List.of(List.of("shop", "totals"));

        assertThat(
                        new WarehouseReader(warehouse, new ReadLimits(3, Long.MAX_VALUE))
                                .read(TABLE, 1, paths)
                                .orElseThrow())
                .singleElement()
                .satisfies(table -> assertThat(table.rows()).hasSize(3));
        long start = System.nanoTime();
        assertThatThrownBy(
                        () ->
                                new WarehouseReader(warehouse, new ReadLimits(2, Long.MAX_VALUE))
                                        .read(TABLE, 1, paths))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        refused ->
                                assertThat(refused.reason())
                                        .isEqualTo(WarehouseReader.RESULT_TOO_LARGE))
                .hasMessageContaining("stopped at 2 rows (mt.ddl.read-max-rows)");
        assertThat((System.nanoTime() - start) / 1_000_000)
                .as("milliseconds: refused at once, not read again")
                .isLessThan(WarehouseReader.ATTEMPTS * 50L);
    }

    @Test
    void aReadPastItsBytesIsRefused() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        TableId id = TableId.of(TABLE);
        try (Catalog catalog = catalog(warehouse)) {
            catalog.createDatabase(id.database(), true);
            create(catalog, Identifier.create(id.database(), id.name()), 1); // three rows
        }
        List<List<String>> paths = List.of(List.of("shop", "totals"));

        // Each row is two numbers: (4 + 16) * 2 bytes counted, 120 for the three.
        assertThat(new WarehouseReader(warehouse, new ReadLimits(3, 120)).read(TABLE, 1, paths))
                .isPresent();
        assertThatThrownBy(
                        () ->
                                new WarehouseReader(warehouse, new ReadLimits(3, 119))
                                        .read(TABLE, 1, paths))
                .isInstanceOfSatisfying(
                        StatementException.class,
                        refused ->
                                assertThat(refused.reason())
                                        .isEqualTo(WarehouseReader.RESULT_TOO_LARGE))
                .hasMessageContaining(
                        "stopped at 119 bytes of values (mt.ddl.read-max-bytes), by row 3");
    }

    @Test
    void aReadHoldsOnlyTheRowsItsWhereSelectsAndStopsAtItsLimit() throws Exception {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        TableId id = TableId.of(TABLE);
        try (Catalog catalog = catalog(warehouse)) {
            catalog.createDatabase(id.database(), true);
            create(catalog, Identifier.create(id.database(), id.name()), 1); // k 1, 2, 3
        }
        List<List<String>> paths = List.of(List.of("shop", "totals"));
        PushedDown.Condition secondKey =
                new PushedDown.Condition("k", PushedDown.Comparison.EQUAL, BigDecimal.valueOf(2));

        // A cap of one row: only the row the WHERE selects is held.
        assertThat(
                        new WarehouseReader(warehouse, new ReadLimits(1, Long.MAX_VALUE))
                                .read(TABLE, 1, paths, new PushedDown(List.of(secondKey), true, -1))
                                .orElseThrow())
                .singleElement()
                .satisfies(
                        table ->
                                assertThat(table.rows())
                                        .singleElement()
                                        .satisfies(row -> assertThat(row[0]).isEqualTo(2)));
        // A LIMIT 2 over a table of three: two rows read, under a cap of two.
        assertThat(
                        new WarehouseReader(warehouse, new ReadLimits(2, Long.MAX_VALUE))
                                .read(TABLE, 1, paths, new PushedDown(List.of(), true, 2))
                                .orElseThrow()
                                .get(0)
                                .rows())
                .hasSize(2);
        // k > 1 AND k < 'x': the second cannot be stated for Paimon, so the LIMIT is not applied
        // and the first still is.
        PushedDown partly =
                new PushedDown(
                        List.of(
                                new PushedDown.Condition(
                                        "k", PushedDown.Comparison.GREATER, BigDecimal.ONE),
                                new PushedDown.Condition("k", PushedDown.Comparison.LESS, "x")),
                        true,
                        1);
        assertThat(
                        new WarehouseReader(warehouse, new ReadLimits(2, Long.MAX_VALUE))
                                .read(TABLE, 1, paths, partly)
                                .orElseThrow()
                                .get(0)
                                .rows())
                .extracting(row -> row[0])
                .containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void aTableNotCreatedYetIsNoTableAtOnce() {
        Warehouse warehouse = Warehouse.at(dir.toUri().toString());
        long start = System.nanoTime();
        assertThat(
                        new WarehouseReader(warehouse, new ReadLimits(1_000_000, Long.MAX_VALUE))
                                .read(TABLE, 1, List.of(List.of("shop", "totals"))))
                .isEmpty();
        assertThat((System.nanoTime() - start) / 1_000_000)
                .as("milliseconds: no look again for a name no switch-over touches")
                .isLessThan(WarehouseReader.ATTEMPTS * 50L);
    }

    /** As JobSubmitter.swapInStaged does, after the staged job filled its table. */
    private static void switchOver(Catalog catalog, TableId id, int version) throws Exception {
        Identifier main = Identifier.create(id.database(), id.name());
        Identifier staged =
                Identifier.create(
                        id.database(), TableId.of(SwitchOverNames.staged(TABLE, version)).name());
        Identifier retired =
                Identifier.create(id.database(), TableId.of(SwitchOverNames.retired(TABLE)).name());
        create(catalog, staged, version);
        catalog.renameTable(main, retired, false);
        catalog.renameTable(staged, main, false);
        catalog.dropTable(retired, false);
    }

    private static void create(Catalog catalog, Identifier name, int version) throws Exception {
        catalog.createTable(
                name,
                Schema.newBuilder()
                        .column("k", DataTypes.INT().notNull())
                        .column("v", DataTypes.INT())
                        .primaryKey("k")
                        .option("bucket", "1")
                        .build(),
                false);
        BatchWriteBuilder builder = catalog.getTable(name).newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            for (int k = 1; k <= 3; k++) {
                write.write(GenericRow.of(k, version));
            }
            commit.commit(write.prepareCommit());
        }
    }

    private static Catalog catalog(Warehouse warehouse) {
        return CatalogFactory.createCatalog(
                CatalogContext.create(Options.fromMap(warehouse.catalogOptions())));
    }
}
