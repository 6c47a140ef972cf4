package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.client.MtablesClient;
import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Shapes;
import io.mtables.oracle.Statements;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The common query shapes (oracle's {@code shapes} example: DISTINCT, GROUP BY a nullable column,
 * HAVING, a global aggregate, outer joins, subqueries, CASE, string and date functions, Top-N,
 * UNION) through every service from PostgreSQL to Paimon, each equal to PostgreSQL's answer after
 * inserts, updates (to and from NULL), deletes and a capture killed with SIGKILL (a replayed
 * suffix); none ends suspended by its own rows; what cannot be kept is refused at CREATE.
 */
class ShapesAcrossServicesIT {

    private static final Example SHAPES = Example.named("shapes");
    // One streaming job, one slot, per shape.
    private static final ExampleServices SERVICES =
            new ExampleServices("shapes", 18480, 18, "1536m");
    private static final String SCHEMA = SERVICES.schema();

    @BeforeAll
    static void startServices() throws Exception {
        SERVICES.start(false, List.of(SHAPES));
    }

    @AfterAll
    static void stopServices() throws Exception {
        SERVICES.close();
    }

    @Test
    void everyShapeEqualsPostgresAcrossChangesAndAKilledCaptureOrIsRefusedAtCreate()
            throws Exception {
        SERVICES.harness(SHAPES, 5, Duration.ZERO).declareTables();
        for (List<String> refused : Shapes.refused(SCHEMA)) {
            assertThatThrownBy(() -> statements().send(refused.get(0)))
                    .as(refused.get(0))
                    .isInstanceOf(MtablesClient.StatementFailed.class)
                    .hasMessageContaining("HTTP 400")
                    .hasMessageContaining("PlanRefused")
                    .hasMessageContaining(refused.get(1));
        }

        SERVICES.awaitActivated(Shapes.tableNames(SCHEMA), Duration.ofMinutes(10));
        // One round with the capture killed halfway: inserts, updates (to and from NULL), deletes
        // and a replayed suffix.
        Harness.Report killed =
                SERVICES.harness(SHAPES, 6, ExampleServices.WORKLOAD)
                        .run(SERVICES::killAndRestartCapture);
        assertThat(killed.differingRows())
                .as("seed 6, the capture killed with SIGKILL halfway")
                .isZero();

        for (String table : Shapes.tableNames(SCHEMA)) {
            var status =
                    statements()
                            .rows(
                                    "SELECT table_name, status FROM"
                                        + " information_schema.materialized_tables WHERE table_name"
                                        + " = 'default_catalog."
                                            + SCHEMA
                                            + "."
                                            + table
                                            + "'");
            assertThat(status)
                    .as(table + " still runs, never suspended by its own rows")
                    .containsExactly(
                            List.of("default_catalog." + SCHEMA + "." + table, "ACTIVATED"));
        }
        var columns =
                statements().send("SELECT * FROM " + SCHEMA + ".shape_global").path("columns");
        assertThat(columns.toString())
                .as("the synthetic key is storage, not data")
                .doesNotContain("__mt_key");

        // docs/planner.md's table of shapes is this run's: mode and key as the plans say.
        ExampleServices.assertDocumented(
                SERVICES.planTable(Shapes.queries("s")), "supported-shapes.md");
    }

    private static Statements statements() {
        return SERVICES.statements();
    }
}
