package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.StateCompatibility.Verdict;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's changes to a running query, judged from Flink's compiled plans of the old and the new
 * query.
 */
class StateCompatibilityTest {

    private static final FlinkQueryAnalyzer ANALYZER = new FlinkQueryAnalyzer();
    private static final String ORDERS =
            "CREATE TABLE `default_catalog`.`shop`.`orders` (id BIGINT, user_id BIGINT, region"
                + " STRING, item STRING, price DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts -"
                + " INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'topic' = 'o', 'format' ="
                + " 'json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' ="
                + " 'earliest-offset')";
    private static final String USERS =
            "CREATE TABLE `default_catalog`.`shop`.`users` (id BIGINT NOT NULL, name STRING,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'u',"
                    + " 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1',"
                    + " 'scan.startup.mode' = 'earliest-offset')";
    private static final String HOURLY =
            "FROM TABLE(TUMBLE(TABLE `default_catalog`.`shop`.`orders`, DESCRIPTOR(`ts`), INTERVAL"
                    + " '1' HOUR))";
    private static final String WINDOW_SUM =
            "SELECT `window_start`, `window_end`, `user_id`, SUM(`price`) AS `total` "
                    + HOURLY
                    + " GROUP BY `window_start`, `window_end`, `user_id`";

    @Test
    void aFilterOnTheOuterQueryKeepsTheState() {
        var result = verdict(WINDOW_SUM, "SELECT * FROM (" + WINDOW_SUM + ") WHERE `total` > 100");

        assertThat(result.verdict()).isEqualTo(Verdict.COMPATIBLE);
        assertThat(result.reason())
                .contains("GlobalWindowAggregate(groupBy=[user_id]")
                .contains("changes only what follows it");
    }

    @Test
    void anOutputColumnComputedFromTheResultKeepsTheState() {
        var result =
                verdict(
                        WINDOW_SUM,
                        "SELECT `window_start`, `window_end`, `user_id`, SUM(`price`) AS `total`,"
                                + " SUM(`price`) * 2 AS `doubled` "
                                + HOURLY
                                + " GROUP BY `window_start`, `window_end`, `user_id`");

        assertThat(result.verdict()).isEqualTo(Verdict.COMPATIBLE);
    }

    @Test
    void aHavingClauseAddedKeepsTheStateThoughTheAggregateNowSendsUpdateBefores() {
        String counted =
                "SELECT `user_id`, COUNT(*) AS `n` FROM `default_catalog`.`shop`.`orders` GROUP BY"
                        + " `user_id`";
        var result = verdict(counted, counted + " HAVING COUNT(*) > 1");

        assertThat(result.verdict()).isEqualTo(Verdict.COMPATIBLE);
        assertThat(result.reason())
                .contains("GroupAggregate(groupBy=[user_id]")
                .contains("Calc(select=[user_id, n], where=[(n > 1)])");
    }

    @Test
    void aStatelessQueryKeepsItsReadPositionsWhateverItProjects() {
        var result =
                verdict(
                        "SELECT `id`, `price` FROM `default_catalog`.`shop`.`orders`",
                        "SELECT `id`, `price`, `item` FROM `default_catalog`.`shop`.`orders` WHERE"
                                + " `price` > 0");

        assertThat(result.verdict()).isEqualTo(Verdict.COMPATIBLE);
        assertThat(result.reason())
                .contains("no state but its read positions in default_catalog.shop.orders");
    }

    @Test
    void aLargerWindowIsIncompatible() {
        var result =
                verdict(WINDOW_SUM, WINDOW_SUM.replace("INTERVAL '1' HOUR", "INTERVAL '2' HOUR"));

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason())
                .startsWith("the window changed")
                .contains("size=[1 h]")
                .contains("size=[2 h]");
    }

    @Test
    void aHoppingWindowInsteadOfATumblingOneIsIncompatible() {
        var result =
                verdict(
                        WINDOW_SUM,
                        WINDOW_SUM.replace(
                                "TUMBLE(TABLE `default_catalog`.`shop`.`orders`, DESCRIPTOR(`ts`),"
                                        + " INTERVAL '1' HOUR)",
                                "HOP(TABLE `default_catalog`.`shop`.`orders`, DESCRIPTOR(`ts`),"
                                        + " INTERVAL '30' MINUTE, INTERVAL '1' HOUR)"));

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason()).contains("HOP");
    }

    @Test
    void anotherGroupingKeyIsIncompatible() {
        var result =
                verdict(
                        WINDOW_SUM,
                        "SELECT `window_start`, `window_end`, `user_id`, `region`, SUM(`price`) AS"
                                + " `total` "
                                + HOURLY
                                + " GROUP BY `window_start`, `window_end`, `user_id`, `region`");

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason())
                .startsWith("the grouping keys changed")
                .contains("groupBy=[user_id, region]");
    }

    @Test
    void aDistinctAggregateIsIncompatibleAndSaysSo() {
        String counted =
                "SELECT `user_id`, COUNT(`item`) AS `n` FROM `default_catalog`.`shop`.`orders`"
                        + " GROUP BY `user_id`";
        var result = verdict(counted, counted.replace("COUNT(`item`)", "COUNT(DISTINCT `item`)"));

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason()).startsWith("DISTINCT aggregates");
    }

    @Test
    void aDistinctAggregateAddedToTheSameWindowIsBlamedOnTheAggregatesNotTheWindow() {
        var result =
                verdict(
                        WINDOW_SUM,
                        "SELECT `window_start`, `window_end`, `user_id`, SUM(`price`) AS `total`,"
                                + " SUM(DISTINCT `price`) AS `prices` "
                                + HOURLY
                                + " GROUP BY `window_start`, `window_end`, `user_id`");

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason()).startsWith("DISTINCT aggregates");
    }

    @Test
    void anAddedAggregateIsIncompatibleForFlinksAccumulatorRow() {
        String summed =
                "SELECT `user_id`, SUM(`price`) AS `total` FROM `default_catalog`.`shop`.`orders`"
                        + " GROUP BY `user_id`";
        var result =
                verdict(
                        summed,
                        "SELECT `user_id`, SUM(`price`) AS `total`, MAX(`price`) AS `top` FROM"
                                + " `default_catalog`.`shop`.`orders` GROUP BY `user_id`");

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason()).startsWith("the aggregates changed");
    }

    @Test
    void aFilterBeforeTheAggregateIsUnknown() {
        String summed =
                "SELECT `user_id`, SUM(`price`) AS `total` FROM `default_catalog`.`shop`.`orders`"
                        + " GROUP BY `user_id`";
        var result =
                verdict(
                        summed,
                        "SELECT `user_id`, SUM(`price`) AS `total` FROM"
                            + " `default_catalog`.`shop`.`orders` WHERE `region` = 'EU' GROUP BY"
                            + " `user_id`");

        assertThat(result.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result.reason())
                .contains("the rows reaching it are computed differently")
                .contains("region");
    }

    @Test
    void aFilterFlinkMovesIntoTheNormalizationOfAChangeStreamIsUnknown() {
        String counted =
                "SELECT `name`, COUNT(*) AS `n` FROM `default_catalog`.`shop`.`users` GROUP BY"
                        + " `name`";
        var result =
                verdict(
                        counted,
                        "SELECT `name`, COUNT(*) AS `n` FROM `default_catalog`.`shop`.`users` WHERE"
                                + " `name` <> 'x' GROUP BY `name`");

        assertThat(result.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result.reason())
                .startsWith("the filter Flink moved into ChangelogNormalize(key=[id]) changed");
    }

    @Test
    void aJoinAddedKeepsStateTheOldQueryDidNot() {
        String summed =
                "SELECT `user_id`, SUM(`price`) AS `total` FROM `default_catalog`.`shop`.`orders`"
                        + " GROUP BY `user_id`";
        var result =
                verdict(
                        summed,
                        "SELECT `o`.`user_id`, SUM(`o`.`price`) AS `total` FROM"
                            + " `default_catalog`.`shop`.`orders` AS `o` JOIN"
                            + " `default_catalog`.`shop`.`users` AS `u` ON `o`.`user_id` = `u`.`id`"
                            + " GROUP BY `o`.`user_id`");

        assertThat(result.verdict()).isEqualTo(Verdict.INCOMPATIBLE);
        assertThat(result.reason()).contains("reads other sources");
    }

    @Test
    void aQueryFlinkCannotCompileIsUnknownInFlinksWords() {
        var result = verdict(WINDOW_SUM, "SELECT `nope` FROM `default_catalog`.`shop`.`orders`");

        assertThat(result.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result.reason())
                .startsWith("Flink cannot compile the new query's plan here")
                .contains("nope");
    }

    private static StateCompatibility.Result verdict(String running, String changed) {
        return ANALYZER.stateVerdict(table(running), table(changed), UpstreamPlans.NONE);
    }

    static TableDefinition table(String query) {
        var sources =
                List.of(
                        new TableDefinition.SourceTable(
                                "default_catalog.shop.orders",
                                TableDefinition.Kind.SOURCE_TABLE,
                                1,
                                ORDERS,
                                null,
                                null),
                        new TableDefinition.SourceTable(
                                "default_catalog.shop.users",
                                TableDefinition.Kind.SOURCE_TABLE,
                                1,
                                USERS,
                                null,
                                null));
        return TableDefinitionBuilder.builder()
                .table("default_catalog.shop.mt")
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("x")
                .columns(List.of(new TableDefinition.Column("a", "STRING", true)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(query, query))
                .sources(sources)
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
