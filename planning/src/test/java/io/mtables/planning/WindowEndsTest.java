package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which output columns of a query Flink's compiled plan proves to be a closed window's end. */
class WindowEndsTest {

    private static final FlinkQueryAnalyzer ANALYZER = new FlinkQueryAnalyzer();
    private static final String HOURLY =
            " FROM TABLE(TUMBLE(TABLE `default_catalog`.`shop`.`orders`, DESCRIPTOR(`ts`),"
                    + " INTERVAL '1' HOUR)) GROUP BY `window_start`, `window_end`, `user_id`";

    @Test
    void aWindowAggregatesEndIsOneAlsoRenamedAndBehindAFilter() {
        assertThat(
                        ends(
                                "SELECT `user_id`, `window_end` AS `closed_at`, `window_start`,"
                                        + " SUM(`price`) AS `total`"
                                        + HOURLY
                                        + " HAVING SUM(`price`) > 3"))
                .containsExactly("closed_at");
    }

    @Test
    void hopAndCumulateWindowsToo() {
        assertThat(
                        ends(
                                "SELECT `window_end`, COUNT(*) AS `n` FROM"
                                        + " TABLE(HOP(TABLE `default_catalog`.`shop`.`orders`,"
                                        + " DESCRIPTOR(`ts`), INTERVAL '1' MINUTE, INTERVAL '5'"
                                        + " MINUTE)) GROUP BY `window_start`, `window_end`"))
                .containsExactly("window_end");
        assertThat(
                        ends(
                                "SELECT `window_end`, COUNT(*) AS `n` FROM"
                                        + " TABLE(CUMULATE(TABLE `default_catalog`.`shop`.`orders`,"
                                        + " DESCRIPTOR(`ts`), INTERVAL '1' MINUTE, INTERVAL '5'"
                                        + " MINUTE)) GROUP BY `window_start`, `window_end`"))
                .containsExactly("window_end");
    }

    @Test
    void aValueComputedFromTheEndOrAColumnOfNoWindowIsNot() {
        assertThat(
                        ends(
                                "SELECT `user_id`, `window_end` + INTERVAL '1' SECOND AS"
                                        + " `window_end`, SUM(`price`) AS `total`"
                                        + HOURLY))
                .isEmpty();
        assertThat(
                        ends(
                                "SELECT `user_id`, MAX(`ts`) AS `window_end` FROM"
                                        + " `default_catalog`.`shop`.`orders` GROUP BY `user_id`"))
                .isEmpty();
    }

    private static java.util.Set<String> ends(String query) {
        return ANALYZER.windowEnds(StateCompatibilityTest.table(query), UpstreamPlans.NONE);
    }
}
