package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.QueryAnalysis.Verdict;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Flink's own verdicts on real queries: the planner, not string matching, decides. */
class FlinkQueryAnalyzerTest {

    static final FlinkQueryAnalyzer ANALYZER = new FlinkQueryAnalyzer();
    static final String CDC_ORDERS =
            "CREATE TABLE `default_catalog`.`shop`.`orders` (id BIGINT, ds STRING, amount"
                    + " DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka',"
                    + " 'topic' = 'o', 'format' = 'debezium-json', 'properties.bootstrap.servers' ="
                    + " 'x:1', 'scan.startup.mode' = 'earliest-offset')";
    private static final String CDC_USERS =
            "CREATE TABLE `default_catalog`.`shop`.`users` (id BIGINT NOT NULL, firstname STRING,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'u',"
                    + " 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1',"
                    + " 'scan.startup.mode' = 'earliest-offset')";
    private static final String CDC_DOMAINS =
            "CREATE TABLE `default_catalog`.`shop`.`domains` (id BIGINT NOT NULL, user_id BIGINT,"
                    + " domain STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka',"
                    + " 'topic' = 'd', 'format' = 'debezium-json', 'properties.bootstrap.servers' ="
                    + " 'x:1', 'scan.startup.mode' = 'earliest-offset')";
    private static final String APPEND_CLICKS =
            "CREATE TABLE `default_catalog`.`shop`.`clicks` (id BIGINT, url STRING, ts"
                + " TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json',"
                + " 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' ="
                + " 'earliest-offset')";

    @Test
    void theWarmUpPlansItsTableAndLeavesNoTableBehind() {
        FlinkQueryAnalyzer analyzer = new FlinkQueryAnalyzer();

        analyzer.warmUp(0);

        // The warm-up's sources are gone: a query naming one without declaring it does not
        // validate.
        QueryAnalysis reading =
                analyzer.analyze(
                        table(
                                "SELECT `u`.`id` FROM `default_catalog`.`"
                                        + WarmUp.DATABASE
                                        + "`.`users` AS `u`",
                                List.of()));
        assertThat(reading.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(reading.detail()).contains("not found");
        assertThat(analyzer.analyze(WarmUp.definition()).verdict())
                .as("the warm-up table itself")
                .isEqualTo(Verdict.STREAMABLE);
    }

    @Test
    void aggregateOverAChangeStreamIsUpdating() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `orders`.`ds`, COUNT(*) AS `n` FROM"
                                        + " `default_catalog`.`shop`.`orders` AS `orders` GROUP BY"
                                        + " `orders`.`ds`",
                                "orders",
                                CDC_ORDERS));

        assertThat(analysis.verdict()).isEqualTo(Verdict.STREAMABLE);
        assertThat(analysis.changelogMode()).isEqualTo("[I,UA,D]");
        assertThat(analysis.updating()).isTrue();
        assertThat(analysis.regularJoin()).isFalse();
    }

    @Test
    void projectionOverAnAppendStreamIsInsertOnly() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS"
                                        + " `clicks`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(analysis.changelogMode()).isEqualTo("[I]");
        assertThat(analysis.updating()).isFalse();
    }

    @Test
    void sortOnANonTimeColumnCannotRunAsAStream() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS"
                                        + " `clicks` ORDER BY `clicks`.`url`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(analysis.verdict()).isEqualTo(Verdict.NOT_STREAMABLE);
        assertThat(analysis.detail()).isNotBlank();
    }

    @Test
    void aQueryThatDoesNotCompileAtAllIsUnknownNotUnstreamable() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `x`.`nope` FROM `default_catalog`.`shop`.`missing` AS `x`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(analysis.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(analysis.detail()).contains("does not validate here");
    }

    @Test
    void theGroupByIsTheDerivedKey() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `orders`.`ds`, SUM(`orders`.`amount`) AS `total` FROM"
                                        + " `default_catalog`.`shop`.`orders` AS `orders` GROUP BY"
                                        + " `orders`.`ds`",
                                "orders",
                                CDC_ORDERS));

        assertThat(analysis.uniqueKeys()).containsExactly(List.of("ds"));
        // A keyed change stream is normalized by key (duplicate events from Debezium change
        // nothing): state too.
        assertThat(analysis.statefulOperators())
                .containsExactly("group aggregation", "changelog normalization");
    }

    @Test
    void distinctIsKeyedOnItsColumnsAndAGlobalAggregateOnTheEmptyKey() {
        QueryAnalysis distinct =
                ANALYZER.analyze(
                        table(
                                "SELECT DISTINCT `u`.`firstname` FROM"
                                        + " `default_catalog`.`shop`.`users` AS `u`",
                                "users",
                                CDC_USERS));
        QueryAnalysis global =
                ANALYZER.analyze(
                        table(
                                "SELECT COUNT(*) AS `n`, SUM(`o`.`amount`) AS `total` FROM"
                                        + " `default_catalog`.`shop`.`orders` AS `o`",
                                "orders",
                                CDC_ORDERS));

        assertThat(distinct.verdict()).isEqualTo(Verdict.STREAMABLE);
        assertThat(distinct.uniqueKeys()).containsExactly(List.of("firstname"));
        assertThat(global.uniqueKeys()).as("at most one row").containsExactly(List.of());
    }

    @Test
    void aGlobalAggregateBehindAProjectionStillHasAtMostOneRow() {
        QueryAnalysis ratio =
                ANALYZER.analyze(
                        withColumns(
                                table(
                                        "SELECT SUM(`o`.`amount`) / COUNT(*) AS `mean` FROM"
                                                + " `default_catalog`.`shop`.`orders` AS `o`",
                                        "orders",
                                        CDC_ORDERS),
                                new TableDefinition.Column("mean", "DECIMAL(38, 6)", true)));

        assertThat(ratio.uniqueKeys()).containsExactly(List.of());
        assertThat(ratio.emptyInputRow())
                .as("NULL / 0 is NULL, as in SQL")
                .containsExactly((String) null);
    }

    /**
     * What a batch query answers over no rows, reduced by Calcite's rules: the row the stream holds
     * meanwhile.
     */
    @Test
    void anOuterJoinIsKeyedOnBothSidesKeysWhichCanBeNull() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`id` AS `user_id`, `d`.`id` AS `domain_id` FROM"
                                        + " `default_catalog`.`shop`.`users` AS `u` LEFT JOIN"
                                        + " `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` ="
                                        + " `d`.`user_id`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.changelogMode()).isEqualTo("[I,UB,UA,D]");
        assertThat(analysis.uniqueKeys()).containsExactly(List.of("user_id", "domain_id"));
        assertThat(analysis.regularJoin()).isTrue();
    }

    @Test
    void changeStreamsReadExactlyOnceAreNotNormalizedUnlessOneOfTheJobsMayRepeat() {
        String join =
                "SELECT `u`.`id` AS `user_id`, `d`.`id` AS `domain_id` FROM"
                        + " `default_catalog`.`shop`.`users` AS `u` INNER JOIN"
                        + " `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` = `d`.`user_id`";
        TableDefinition exactlyOnce =
                table(
                        join,
                        List.of(
                                source("users", readCommitted(CDC_USERS)),
                                source("domains", readCommitted(CDC_DOMAINS))));
        assertThat(ANALYZER.analyze(exactlyOnce).statefulOperators())
                .containsExactly("regular join");
        assertThat(ChangeStreamDelivery.atLeastOnce(exactlyOnce)).isEmpty();

        TableDefinition mixed =
                table(
                        join,
                        List.of(
                                source("users", readCommitted(CDC_USERS)),
                                source("domains", CDC_DOMAINS)));
        assertThat(ANALYZER.analyze(mixed).statefulOperators())
                .as("one stream that may repeat: Flink's option holds for the whole job")
                .containsExactly("regular join", "changelog normalization");
        assertThat(ChangeStreamDelivery.atLeastOnce(mixed))
                .containsExactly("default_catalog.shop.domains");
        assertThat(
                        ChangeStreamDelivery.reason(
                                mixed,
                                List.of(
                                        "default_catalog.shop.users",
                                        "default_catalog.shop.domains")))
                .startsWith("default_catalog.shop.domains may repeat an event");
    }

    private static String readCommitted(String statement) {
        return statement.replace(
                "'scan.startup.mode'",
                "'properties.isolation.level' = 'read_committed', 'scan.startup.mode'");
    }

    @Test
    void aJoinKeepsTheKeysOfBothSidesWhenSelected() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`id` AS `user_id`, `d`.`id` AS `domain_id`,"
                                    + " `d`.`domain` FROM `default_catalog`.`shop`.`users` AS `u`"
                                    + " INNER JOIN `default_catalog`.`shop`.`domains` AS `d` ON"
                                    + " `u`.`id` = `d`.`user_id`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.changelogMode()).isEqualTo("[I,UB,UA,D]");
        assertThat(analysis.uniqueKeys()).containsExactly(List.of("domain_id"));
        assertThat(analysis.statefulOperators())
                .containsExactly("regular join", "changelog normalization");
        assertThat(analysis.latestValueSources())
                .containsExactly("default_catalog.shop.users", "default_catalog.shop.domains");
    }

    @Test
    void aUnionAllHasNoKeyButEachBranchHasItsOwnNamedByTheUnionsColumns() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`firstname` AS `name`, `u`.`id` FROM"
                                    + " `default_catalog`.`shop`.`users` AS `u` UNION ALL SELECT"
                                    + " `d`.`domain`, `d`.`id` FROM"
                                    + " `default_catalog`.`shop`.`domains` AS `d` UNION ALL SELECT"
                                    + " `o`.`ds`, COUNT(*) FROM `default_catalog`.`shop`.`orders`"
                                    + " AS `o` GROUP BY `o`.`ds`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS),
                                        source("orders", CDC_ORDERS))));

        assertThat(analysis.uniqueKeys()).isEmpty();
        assertThat(analysis.branchKeys())
                .containsExactly(List.of("id"), List.of("id"), List.of("name"));
    }

    @Test
    void aUnionAllBranchWithoutAKeyIsNamed() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`firstname` FROM `default_catalog`.`shop`.`users` AS"
                                        + " `u` UNION ALL SELECT `d`.`domain` FROM"
                                        + " `default_catalog`.`shop`.`domains` AS `d`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.branchKeys()).containsExactly(null, null);
    }

    @Test
    void theClockAndRandomValuesAnywhereInTheQueryAreVolatile() {
        QueryAnalysis clock =
                ANALYZER.analyze(
                        table(
                                "SELECT `c`.`url`, CURRENT_DATE AS `today`, RAND() AS `r` FROM"
                                        + " `default_catalog`.`shop`.`clicks` AS `c`",
                                "clicks",
                                APPEND_CLICKS));
        QueryAnalysis plain =
                ANALYZER.analyze(
                        table(
                                "SELECT `c`.`url` AS `now` FROM `default_catalog`.`shop`.`clicks`"
                                        + " AS `c`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(clock.volatileFunctions()).contains("CURRENT_DATE", "RAND");
        assertThat(plain.volatileFunctions()).isEmpty();
    }

    @Test
    void aJoinThatDropsTheUniqueColumnsHasNoKey() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`id` AS `user_id`, `d`.`domain` FROM"
                                        + " `default_catalog`.`shop`.`users` AS `u` INNER JOIN"
                                        + " `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` ="
                                        + " `d`.`user_id`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.updating()).isTrue();
        assertThat(analysis.uniqueKeys()).isEmpty();
    }

    @Test
    void aStateTtlHintSilencesTheUnboundedStateOfItsJoin() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT /*+ STATE_TTL('u' = '1d', 'd' = '1d') */ `u`.`id` AS"
                                        + " `user_id`, `d`.`id` AS `domain_id` FROM"
                                        + " `default_catalog`.`shop`.`users` AS `u` INNER JOIN"
                                        + " `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` ="
                                        + " `d`.`user_id`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.statefulOperators()).doesNotContain("regular join");
        assertThat(analysis.regularJoin())
                .as("an inner join, which Flink's mini-batches would batch too")
                .isTrue();
    }

    @Test
    void aSemiJoinIsNoRegularJoinToMiniBatches() {
        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `u`.`id`, COUNT(*) AS `n` FROM"
                                    + " `default_catalog`.`shop`.`users` AS `u` WHERE `u`.`id` IN"
                                    + " (SELECT `d`.`user_id` FROM"
                                    + " `default_catalog`.`shop`.`domains` AS `d`) GROUP BY"
                                    + " `u`.`id`",
                                List.of(
                                        source("users", CDC_USERS),
                                        source("domains", CDC_DOMAINS))));

        assertThat(analysis.regularJoin()).isFalse();
    }

    @Test
    void currentTimeInFiltersIsFoundButNotInTheSelectList() {
        QueryAnalysis filtered =
                ANALYZER.analyze(
                        table(
                                "SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS"
                                    + " `clicks` WHERE `clicks`.`ts` > NOW() - INTERVAL '1' DAY",
                                "clicks",
                                APPEND_CLICKS));
        QueryAnalysis selected =
                ANALYZER.analyze(
                        table(
                                "SELECT `clicks`.`url`, CURRENT_TIMESTAMP AS `seen` FROM"
                                        + " `default_catalog`.`shop`.`clicks` AS `clicks`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(filtered.timeFunctions()).containsExactly("NOW");
        assertThat(selected.timeFunctions()).isEmpty();
    }

    @Test
    void aChangeStreamCannotBeReadAsABatchButAnAppendStreamCanUpToItsLatestOffsets() {
        QueryAnalysis cdc =
                ANALYZER.analyze(
                        table(
                                "SELECT `orders`.`ds` FROM `default_catalog`.`shop`.`orders` AS"
                                        + " `orders`",
                                "orders",
                                CDC_ORDERS));
        QueryAnalysis append =
                ANALYZER.analyze(
                        table(
                                "SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS"
                                        + " `clicks`",
                                "clicks",
                                APPEND_CLICKS));

        assertThat(cdc.batch().runs()).isFalse();
        assertThat(cdc.batch().detail()).contains("INSERT-only");
        assertThat(append.batch().runs()).isTrue();
        assertThat(append.latestValueSources()).isEmpty();
    }

    @Test
    void aContinuousUpstreamIsReadAsItsChangelogAndKeepsItsKey() {
        var upstream =
                materializedSource(
                        "by_ds",
                        List.of(
                                new TableDefinition.Column("ds", "STRING", false),
                                new TableDefinition.Column("n", "BIGINT", false)));
        RefreshPlan upstreamPlan =
                upstreamPlan(
                        "by_ds",
                        RefreshPlan.Status.ACTIVE,
                        RefreshPlan.Mode.CONTINUOUS,
                        List.of("ds"));

        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT `by_ds`.`ds`, `by_ds`.`n` FROM"
                                        + " `default_catalog`.`shop`.`by_ds` AS `by_ds` WHERE"
                                        + " `by_ds`.`n` > 1",
                                List.of(upstream)),
                        name ->
                                name.equals(upstream.table())
                                        ? Optional.of(upstreamPlan)
                                        : Optional.empty());

        assertThat(analysis.verdict()).isEqualTo(Verdict.STREAMABLE);
        assertThat(analysis.updating()).isTrue();
        assertThat(analysis.uniqueKeys()).contains(List.of("ds"));
        assertThat(analysis.batch().runs()).isTrue();
    }

    @Test
    void aFullUpstreamCannotBeFollowedAsAStreamButReadsAsABatch() {
        var upstream =
                materializedSource(
                        "daily",
                        List.of(
                                new TableDefinition.Column("ds", "STRING", false),
                                new TableDefinition.Column("n", "BIGINT", false)));
        RefreshPlan upstreamPlan =
                upstreamPlan("daily", RefreshPlan.Status.ACTIVE, RefreshPlan.Mode.FULL, List.of());

        QueryAnalysis analysis =
                ANALYZER.analyze(
                        table(
                                "SELECT SUM(`daily`.`n`) AS `total` FROM"
                                        + " `default_catalog`.`shop`.`daily` AS `daily`",
                                List.of(upstream)),
                        name -> Optional.of(upstreamPlan));

        assertThat(analysis.verdict()).isEqualTo(Verdict.NOT_STREAMABLE);
        assertThat(analysis.detail()).contains("default_catalog.shop.daily").contains("overwrites");
        assertThat(analysis.batch().runs()).isTrue();
    }

    @Test
    void anUpstreamWithoutARunnablePlanBlocksTheQuery() {
        var upstream =
                materializedSource(
                        "refused", List.of(new TableDefinition.Column("ds", "STRING", false)));
        TableDefinition reader =
                table(
                        "SELECT `refused`.`ds` FROM `default_catalog`.`shop`.`refused` AS"
                                + " `refused`",
                        List.of(upstream));

        QueryAnalysis unplanned = ANALYZER.analyze(reader, UpstreamPlans.NONE);
        QueryAnalysis refused =
                ANALYZER.analyze(
                        reader,
                        name ->
                                Optional.of(
                                        upstreamPlan(
                                                "refused",
                                                RefreshPlan.Status.REFUSED,
                                                null,
                                                List.of())));

        assertThat(unplanned.verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(unplanned.detail())
                .isEqualTo("it reads default_catalog.shop.refused, which has no plan yet");
        assertThat(refused.verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(refused.detail()).contains("whose plan is REFUSED");
    }

    @Test
    void aPartitionedTableIsFedPartitionByPartitionByTheInputsEveryReadOfWhichTakesItsFilter() {
        var ods =
                new TableDefinition.SourceTable(
                        "default_catalog.shop.ods",
                        TableDefinition.Kind.MATERIALIZED_TABLE,
                        1,
                        "x",
                        List.of(
                                new TableDefinition.Column("id", "BIGINT", false),
                                new TableDefinition.Column("day", "STRING", false),
                                new TableDefinition.Column("amount", "DECIMAL(10, 2)", true)),
                        List.of("day"));
        var dim =
                materializedSource(
                        "dim",
                        List.of(
                                new TableDefinition.Column("id", "BIGINT", false),
                                new TableDefinition.Column("name", "STRING", true)));
        UpstreamPlans plans =
                name ->
                        Optional.of(
                                upstreamPlan(
                                        name.substring(name.lastIndexOf('.') + 1),
                                        RefreshPlan.Status.ACTIVE,
                                        RefreshPlan.Mode.CONTINUOUS,
                                        List.of("id")));
        String odsName = "`default_catalog`.`shop`.`ods`";

        QueryAnalysis perDay =
                ANALYZER.analyze(
                        partitioned(
                                "SELECT `o`.`day` AS `ds`, COUNT(*) AS `n` FROM "
                                        + odsName
                                        + " AS `o` GROUP BY `o`.`day`",
                                List.of(ods)),
                        plans);
        QueryAnalysis joined =
                ANALYZER.analyze(
                        partitioned(
                                "SELECT `o`.`day` AS `ds`, COUNT(*) AS `n` FROM "
                                        + odsName
                                        + " AS `o` JOIN `default_catalog`.`shop`.`dim` AS `d` ON"
                                        + " `o`.`id` = `d`.`id` GROUP BY `o`.`day`",
                                List.of(ods, dim)),
                        plans);
        QueryAnalysis aboveAverage =
                ANALYZER.analyze(
                        partitioned(
                                "SELECT `o`.`day` AS `ds`, COUNT(*) AS `n` FROM "
                                        + odsName
                                        + " AS `o` WHERE `o`.`amount` > (SELECT AVG(`a`.`amount`)"
                                        + " FROM "
                                        + odsName
                                        + " AS `a`) GROUP BY `o`.`day`",
                                List.of(ods)),
                        plans);

        assertThat(perDay.partitionSources())
                .isEqualTo(Map.of("default_catalog.shop.ods", Map.of("ds", "day")));
        assertThat(joined.partitionSources())
                .as("the dimension feeds every partition")
                .isEqualTo(Map.of("default_catalog.shop.ods", Map.of("ds", "day")));
        assertThat(aboveAverage.partitionSources()).as("one read takes every partition").isEmpty();
    }

    private static TableDefinition partitioned(
            String expanded, List<TableDefinition.SourceTable> sources) {
        TableDefinition t = table(expanded, sources);
        return TableDefinitionBuilder.builder()
                .table(t.table())
                .version(1)
                .kind(t.kind())
                .statement("x")
                .columns(
                        List.of(
                                new TableDefinition.Column("ds", "STRING", false),
                                new TableDefinition.Column("n", "BIGINT", false)))
                .primaryKey(List.of())
                .partitionKeys(List.of("ds"))
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.FULL)
                .query(t.query())
                .sources(sources)
                .status(t.status())
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }

    private static TableDefinition.SourceTable materializedSource(
            String name, List<TableDefinition.Column> columns) {
        return new TableDefinition.SourceTable(
                "default_catalog.shop." + name,
                TableDefinition.Kind.MATERIALIZED_TABLE,
                1,
                "CREATE MATERIALIZED TABLE ...",
                columns,
                List.of());
    }

    private static RefreshPlan upstreamPlan(
            String name, RefreshPlan.Status status, RefreshPlan.Mode mode, List<String> key) {
        return RefreshPlanBuilder.builder()
                .table("default_catalog.shop." + name)
                .definitionVersion(1)
                .status(status)
                .mode(mode)
                .freshness(new RefreshPlan.Freshness(1, "MINUTE"))
                .freshnessDeclared(true)
                .checkpointInterval(null)
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode(null)
                .upsertKey(
                        key.isEmpty()
                                ? null
                                : new RefreshPlan.UpsertKey(
                                        key, RefreshPlan.UpsertKey.Origin.DERIVED))
                .upstreamTables(List.of())
                .reasons(List.of("test"))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .build();
    }

    private static TableDefinition.SourceTable source(String name, String statement) {
        return new TableDefinition.SourceTable(
                "default_catalog.shop." + name,
                TableDefinition.Kind.SOURCE_TABLE,
                1,
                statement,
                null,
                null);
    }

    static TableDefinition table(String expanded, String source, String statement) {
        return table(expanded, List.of(source(source, statement)));
    }

    /**
     * The same definition with the columns its query derives: the planner plans the job's own query
     * over them.
     */
    static TableDefinition withColumns(TableDefinition d, TableDefinition.Column... columns) {
        return TableDefinitionBuilder.builder(d)
                .columns(List.of(columns))
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private static TableDefinition table(
            String expanded, List<TableDefinition.SourceTable> sources) {
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
                .query(new TableDefinition.Query(expanded, expanded))
                .sources(sources)
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
