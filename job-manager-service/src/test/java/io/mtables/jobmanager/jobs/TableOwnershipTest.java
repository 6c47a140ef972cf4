package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.jobmanager.Tables;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Paimon table in the warehouse that mtables did not create (ddl-service's refresh history, or
 * another writer's) is never replaced or dropped by the job manager, whatever definition names it;
 * its own tables are, as before.
 */
class TableOwnershipTest {

    private static final String TABLE = "default_catalog.shop.totals";

    private static MiniCluster cluster;

    @TempDir Path dir;

    private TableEnvironment env;
    private JobSubmitter submitter;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = MiniClusterTargets.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    @BeforeEach
    void warehouse() {
        Warehouse warehouse = Warehouse.at(dir.resolve("warehouse").toUri().toString());
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(JobSql.createCatalog(warehouse));
        env.executeSql(JobSql.createDatabase(TABLE));
        submitter = new JobSubmitter(MiniClusterTargets.of(cluster), warehouse);
    }

    @Test
    void aTableMtablesDidNotCreateIsNeitherReplacedNorDropped() {
        env.executeSql(
                "CREATE TABLE " + JobSql.paimonName(TABLE) + " (kept STRING, theirs BIGINT)");

        assertThatThrownBy(
                        () -> submitter.tables().ensureTable(definition(), Tables.full(TABLE, 1)))
                .isInstanceOf(PaimonTables.NotOurTableException.class)
                .hasMessageContaining("was not created by mtables");
        assertThatThrownBy(() -> submitter.tables().dropTable(TABLE))
                .isInstanceOf(PaimonTables.NotOurTableException.class);
        env.executeSql(
                "CREATE TABLE "
                        + JobSql.paimonName(JobSql.stagedTable(TABLE, 2))
                        + " (category STRING, n BIGINT)");
        assertThatThrownBy(() -> submitter.tables().swapInStaged(TABLE, 2))
                .as("a switch-over would rename it away and drop it")
                .isInstanceOf(PaimonTables.NotOurTableException.class);

        assertThat(columns()).containsExactly("kept", "theirs");
    }

    @Test
    void itsOwnTablesAreCreatedAndDropped() throws Exception {
        assertThat(submitter.tables().ensureTable(definition(), Tables.full(TABLE, 1))).isTrue();
        assertThat(columns()).containsExactly("category", "n");

        submitter.tables().dropTable(TABLE);

        assertThat(catalog().tableExists(path())).isFalse();
    }

    private static TableDefinition definition() {
        return Tables.materialized(
                TABLE,
                1,
                List.of(
                        new TableDefinition.Column("category", "STRING", false),
                        new TableDefinition.Column("n", "BIGINT", false)),
                List.of(),
                "SELECT 'a' AS category, CAST(1 AS BIGINT) AS n",
                List.of(),
                TableDefinition.Status.ACTIVE);
    }

    private List<String> columns() {
        try {
            return catalog().getTable(path()).getUnresolvedSchema().getColumns().stream()
                    .map(c -> c.getName())
                    .toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private org.apache.flink.table.catalog.Catalog catalog() {
        return env.getCatalog(JobSql.WAREHOUSE_CATALOG).orElseThrow();
    }

    private static ObjectPath path() {
        TableId id = TableId.of(TABLE);
        return new ObjectPath(id.database(), id.name());
    }
}
