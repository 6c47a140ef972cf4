package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.jobmanager.Tables;
import io.mtables.planning.Warehouse;
import io.mtables.planning.WrittenRows;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.plan.RefreshPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A restore's rewrite on a real Paimon table, its job on a Flink mini cluster: compiled while the
 * old job still commits, it rewrites the rows committed after the compile too (Paimon's batch
 * source plans its read when the job starts); one that fails is reported with Flink's cause at
 * once, not after its timeout.
 */
class WrittenRowsRewritesTest {

    private static final String TABLE = "default_catalog.shop.items_copy";
    private static final List<String> OLD_COLUMNS = List.of("id", "amount");

    private static MiniCluster cluster;

    @TempDir Path dir;

    private Warehouse warehouse;
    private TableEnvironment env;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = MiniClusterTargets.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    @BeforeEach
    void table() {
        warehouse = Warehouse.at(dir.resolve("warehouse").toUri().toString());
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(JobSql.createCatalog(warehouse));
        env.executeSql(JobSql.createDatabase(TABLE));
        // The new query's column already appended, as the restore does before it compiles.
        env.executeSql(JobSql.createTable(definition(), plan()));
    }

    @Test
    void rowsCommittedAfterTheCompileAreRewrittenToo() throws Exception {
        insert(1, 3);
        var rewrites = new WrittenRowsRewrites(MiniClusterTargets.of(cluster), warehouse);
        var rewrite =
                rewrites.compile(
                        definition(),
                        plan(),
                        "SELECT id, amount, amount * 10 AS tenfold FROM "
                                + JobSql.quote(WrittenRows.WRITTEN),
                        OLD_COLUMNS,
                        Map.of());
        insert(4, 5); // the old job's last commits, before it stopped

        rewrites.run(rewrite, Duration.ofMinutes(2));

        assertThat(rows())
                .containsExactly("1 10 100", "2 20 200", "3 30 300", "4 40 400", "5 50 500");
    }

    @Test
    void aRewriteThatFailsIsReportedWithItsCause() throws Exception {
        insert(1, 2);
        var rewrites = new WrittenRowsRewrites(MiniClusterTargets.of(cluster), warehouse);
        var rewrite =
                rewrites.compile(
                        definition(),
                        plan(),
                        "SELECT id, amount, CAST(CAST(amount AS STRING) || 'x' AS BIGINT) AS"
                                + " tenfold FROM "
                                + JobSql.quote(WrittenRows.WRITTEN),
                        OLD_COLUMNS,
                        Map.of());

        long started = System.nanoTime();
        assertThatThrownBy(() -> rewrites.run(rewrite, Duration.ofMinutes(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the rewrite of the written rows")
                .hasMessageContaining("ended FAILED")
                .hasMessageContaining("10x");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("reported when the job failed, not when the wait timed out")
                .isLessThan(Duration.ofMinutes(1));
        assertThat(rows()).as("the table keeps its rows").containsExactly("1 10 null", "2 20 null");
    }

    /** Rows {@code from} to {@code to} as the old query wrote them: amount 10 x id, no tenfold. */
    private void insert(int from, int to) throws Exception {
        List<String> values = new ArrayList<>();
        for (int id = from; id <= to; id++) {
            values.add("(" + id + ", " + (10 * id) + ", CAST(NULL AS BIGINT))");
        }
        env.executeSql(
                        "INSERT INTO "
                                + JobSql.paimonName(TABLE)
                                + " VALUES "
                                + String.join(", ", values))
                .await();
    }

    private List<String> rows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                env.executeSql(
                                "SELECT id, amount, tenfold FROM "
                                        + JobSql.paimonName(TABLE)
                                        + " ORDER BY id")
                        .collect()) {
            while (it.hasNext()) {
                Row row = it.next();
                rows.add(row.getField(0) + " " + row.getField(1) + " " + row.getField(2));
            }
        }
        return rows;
    }

    private static TableDefinition definition() {
        return Tables.materialized(
                TABLE,
                2,
                List.of(
                        new Column("id", "BIGINT", false),
                        new Column("amount", "BIGINT", true),
                        new Column("tenfold", "BIGINT", true)),
                List.of(),
                "SELECT id, amount, amount * 10 AS tenfold FROM items",
                List.of(),
                TableDefinition.Status.ACTIVE);
    }

    private static RefreshPlan plan() {
        return Tables.continuous(TABLE, 2, List.of("id"), Duration.ofSeconds(1));
    }
}
