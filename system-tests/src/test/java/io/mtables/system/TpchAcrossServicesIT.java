package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Tpch;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TPC-H's 22 queries (oracle's {@code tpch} example, scale factor 0.001 here) through every service
 * from PostgreSQL to Paimon: 22 CONTINUOUS tables each equal to PostgreSQL's answer after the
 * specification's refresh functions and updates, and after the capture is killed with SIGKILL.
 */
class TpchAcrossServicesIT {

    private static final Example TPCH = Example.named("tpch");
    // One streaming job, one slot, per query.
    private static final ExampleServices SERVICES = new ExampleServices("tpch", 18580, 24, "2g");

    @BeforeAll
    static void startServices() throws Exception {
        SERVICES.start(false, List.of(TPCH));
    }

    @AfterAll
    static void stopServices() throws Exception {
        SERVICES.close();
    }

    @Test
    void everyQueryEqualsPostgresAfterTheRefreshFunctionsAndAKilledCapture() throws Exception {
        SERVICES.harness(TPCH, 7, Duration.ZERO).declareTables();
        SERVICES.awaitActivated(Tpch.tableNames(), Duration.ofMinutes(10));
        // One round with the capture killed halfway: inserts, updates, deletes, and the capture
        // resuming after the last change it committed.
        Harness.Report killed =
                SERVICES.harness(TPCH, 8, ExampleServices.WORKLOAD)
                        .run(SERVICES::killAndRestartCapture);
        assertThat(killed.differingRows())
                .as("seed 8, the capture killed with SIGKILL halfway")
                .isZero();

        String schema = SERVICES.schema();
        for (String table : Tpch.tableNames()) {
            var status =
                    SERVICES.statements()
                            .rows(
                                    "SELECT table_name, status FROM"
                                        + " information_schema.materialized_tables WHERE table_name"
                                        + " = 'default_catalog."
                                            + schema
                                            + "."
                                            + table
                                            + "'");
            assertThat(status)
                    .as(table + " still runs, never suspended by its own rows")
                    .containsExactly(
                            List.of("default_catalog." + schema + "." + table, "ACTIVATED"));
        }
        ExampleServices.assertDocumented(SERVICES.planTable(Tpch.queries("s")), "tpch-plans.md");
    }
}
