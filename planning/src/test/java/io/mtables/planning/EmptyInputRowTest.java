package io.mtables.planning;

import static io.mtables.planning.FlinkQueryAnalyzerTest.ANALYZER;
import static io.mtables.planning.FlinkQueryAnalyzerTest.CDC_ORDERS;
import static io.mtables.planning.FlinkQueryAnalyzerTest.table;
import static io.mtables.planning.FlinkQueryAnalyzerTest.withColumns;
import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.catalog.TableDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The row a global aggregate answers over no input, found by Flink's planner, and when the job that
 * holds it plans.
 */
class EmptyInputRowTest {

    @Test
    void aGlobalAggregateKnowsItsRowOverNoInput() {
        QueryAnalysis totals =
                ANALYZER.analyze(
                        table(
                                "SELECT COUNT(*) AS `n`, SUM(`o`.`amount`) AS `total`,"
                                    + " AVG(`o`.`amount`) AS `mean`, COALESCE(MAX(`o`.`ds`),"
                                    + " 'none') AS `last_ds`, COUNT(DISTINCT `o`.`ds`) + 1 AS"
                                    + " `days` FROM `default_catalog`.`shop`.`orders` AS `o` WHERE"
                                    + " `o`.`amount` > 5",
                                "orders",
                                CDC_ORDERS));
        QueryAnalysis having =
                ANALYZER.analyze(
                        table(
                                "SELECT COUNT(*) AS `n` FROM `default_catalog`.`shop`.`orders` AS"
                                        + " `o` HAVING COUNT(*) > 0",
                                "orders",
                                CDC_ORDERS));
        QueryAnalysis listed =
                ANALYZER.analyze(
                        table(
                                "SELECT LISTAGG(`o`.`ds`) AS `days` FROM"
                                        + " `default_catalog`.`shop`.`orders` AS `o`",
                                "orders",
                                CDC_ORDERS));
        QueryAnalysis grouped =
                ANALYZER.analyze(
                        table(
                                "SELECT `o`.`ds`, COUNT(*) AS `n` FROM"
                                    + " `default_catalog`.`shop`.`orders` AS `o` GROUP BY `o`.`ds`",
                                "orders",
                                CDC_ORDERS));

        assertThat(totals.emptyInputRow()).containsExactly("0", null, null, "none", "1");
        assertThat(having.emptyInputRow()).as("no row, as in a batch").isEmpty();
        assertThat(listed.emptyInputRow())
                .as("a function Calcite's reductions do not know")
                .isNull();
        assertThat(grouped.emptyInputRow()).isNull();
    }

    /**
     * TPC-H Q17's shape: a correlated subquery, which Calcite's decorrelator leaves in place beside
     * a VALUES, not beside the one-row table.
     */
    @Test
    void aCorrelatedSubqueryUnderAGlobalAggregateHoldsItsEmptyInputRowToo() {
        QueryAnalysis correlated =
                ANALYZER.analyze(
                        withColumns(
                                table(
                                        "SELECT SUM(`o`.`amount`) / 7.0 AS `avg_yearly` FROM"
                                            + " `default_catalog`.`shop`.`orders` AS `o` WHERE"
                                            + " `o`.`amount` < (SELECT 0.2 * AVG(`i`.`amount`) FROM"
                                            + " `default_catalog`.`shop`.`orders` AS `i` WHERE"
                                            + " `i`.`ds` = `o`.`ds`)",
                                        "orders",
                                        CDC_ORDERS),
                                new TableDefinition.Column("avg_yearly", "DECIMAL(38, 6)", true)));

        assertThat(correlated.uniqueKeys()).containsExactly(List.of());
        assertThat(correlated.emptyInputRow()).containsExactly((String) null);
    }
}
