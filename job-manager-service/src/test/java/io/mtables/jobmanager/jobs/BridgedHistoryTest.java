package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.Tables;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.refresh.SwitchedOver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's bridge on real Paimon tables, its jobs on a Flink mini cluster: the staged table keeps
 * its own rows after the cut-over and takes the old table's up to it; the cut-over is the older of
 * the two newest window ends, so a window the new job fires after the switch is never one the old
 * rows hold.
 */
class BridgedHistoryTest {

    private static final String TABLE = "default_catalog.shop.clicks_per_minute";
    private static final HistoryBridge BRIDGE =
            new HistoryBridge("window_end", "the first 300 records of cdc.shop.clicks");

    /** The cluster the bridge's jobs run on, as the job manager's run on the embedded one. */
    private static MiniCluster cluster;

    @TempDir Path dir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = MiniClusterTargets.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    private Warehouse warehouse;
    private TableEnvironment env;

    @BeforeEach
    void tables() {
        warehouse = Warehouse.at(dir.resolve("warehouse").toUri().toString());
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(JobSql.createCatalog(warehouse));
        env.executeSql(JobSql.createDatabase(TABLE));
        env.executeSql(
                "CREATE TABLE "
                        + JobSql.paimonName(TABLE)
                        + " (window_end TIMESTAMP(3), clicks BIGINT)");
        env.executeSql(
                "CREATE TABLE "
                        + staged()
                        + " (window_end TIMESTAMP(3), clicks BIGINT, amounts BIGINT)");
    }

    @Test
    void theNewRowsAfterTheOldNewestWindowAndTheOldRowsUpToIt() throws Exception {
        insert(JobSql.paimonName(TABLE), 1, 5);
        insert(staged(), 3, 7);

        Optional<SwitchedOver.Bridged> bridged = bridge();

        assertThat(bridged)
                .contains(
                        new SwitchedOver.Bridged(
                                "window_end",
                                "2026-12-03 10:05:00.000",
                                "2026-12-03 10:03:00.000"));
        assertThat(rows(staged()))
                .containsExactly(
                        "2026-12-03T10:01 old null",
                        "2026-12-03T10:02 old null",
                        "2026-12-03T10:03 old null",
                        "2026-12-03T10:04 old null",
                        "2026-12-03T10:05 old null",
                        "2026-12-03T10:06 new 6",
                        "2026-12-03T10:07 new 7");
    }

    @Test
    void aNewJobBehindTheOldOneCutsOverAtItsOwnNewestWindow() throws Exception {
        insert(JobSql.paimonName(TABLE), 1, 5);
        insert(staged(), 3, 4); // 10:05 not fired yet: the new job fires it after the switch

        Optional<SwitchedOver.Bridged> bridged = bridge();

        assertThat(bridged).map(SwitchedOver.Bridged::cutOver).contains("2026-12-03 10:04:00.000");
        assertThat(rows(staged()))
                .as("10:05 is left to the new job, not kept from the old rows")
                .containsExactly(
                        "2026-12-03T10:01 old null",
                        "2026-12-03T10:02 old null",
                        "2026-12-03T10:03 old null",
                        "2026-12-03T10:04 old null");
    }

    @Test
    void nothingIsBridgedWhenTheOldQueryWroteNoRow() throws Exception {
        insert(staged(), 3, 4);

        assertThat(bridge()).isEmpty();
        assertThat(rows(staged())).hasSize(2);
    }

    private Optional<SwitchedOver.Bridged> bridge() {
        JobSubmitter submitter = new JobSubmitter(MiniClusterTargets.of(cluster), warehouse);
        return new BridgedHistory(submitter)
                .bridge(definition(), BRIDGE, Map.of(), Duration.ofMinutes(2));
    }

    /**
     * Rows of one window per minute from 10:{@code from} to 10:{@code to}: the old table's with
     * {@code clicks} 100 (read back as "old"), the staged table's with clicks 200 ("new") and
     * amounts the minute.
     */
    private void insert(String table, int from, int to) throws Exception {
        boolean old = table.equals(JobSql.paimonName(TABLE));
        List<String> values = new ArrayList<>();
        for (int minute = from; minute <= to; minute++) {
            String end = String.format("TIMESTAMP '2026-12-03 10:%02d:00'", minute);
            values.add(old ? "(" + end + ", 100)" : "(" + end + ", 200, " + minute + ")");
        }
        env.executeSql("INSERT INTO " + table + " VALUES " + String.join(", ", values)).await();
    }

    private List<String> rows(String table) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                env.executeSql(
                                "SELECT window_end, clicks, amounts FROM "
                                        + table
                                        + " ORDER BY window_end")
                        .collect()) {
            while (it.hasNext()) {
                Row row = it.next();
                long clicks = (Long) row.getField(1);
                rows.add(
                        row.getField(0)
                                + " "
                                + (clicks == 100 ? "old" : "new")
                                + " "
                                + row.getField(2));
            }
        }
        return rows;
    }

    private static String staged() {
        return JobSql.paimonName(JobSql.stagedTable(TABLE, 2));
    }

    private static TableDefinition definition() {
        return Tables.materialized(
                TABLE,
                2,
                List.of(),
                List.of(),
                "SELECT window_end, COUNT(*) AS clicks, SUM(DISTINCT amount) AS amounts ...",
                List.of(),
                TableDefinition.Status.ACTIVE);
    }
}
