package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planning.QueryAnalysis.Verdict;
import io.mtables.schemas.catalog.TableDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flink's own verdicts on real queries: the planner, not string matching, decides. */
class FlinkQueryAnalyzerTest {

  private static final FlinkQueryAnalyzer ANALYZER = new FlinkQueryAnalyzer();
  private static final String CDC_ORDERS =
      "CREATE TABLE `default_catalog`.`shop`.`orders` (id BIGINT, ds STRING, amount DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED)"
          + " WITH ('connector' = 'kafka', 'topic' = 'o', 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";
  private static final String CDC_USERS =
      "CREATE TABLE `default_catalog`.`shop`.`users` (id BIGINT NOT NULL, firstname STRING, PRIMARY KEY (id) NOT ENFORCED)"
          + " WITH ('connector' = 'kafka', 'topic' = 'u', 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";
  private static final String CDC_DOMAINS =
      "CREATE TABLE `default_catalog`.`shop`.`domains` (id BIGINT NOT NULL, user_id BIGINT, domain STRING, PRIMARY KEY (id) NOT ENFORCED)"
          + " WITH ('connector' = 'kafka', 'topic' = 'd', 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";
  private static final String APPEND_CLICKS =
      "CREATE TABLE `default_catalog`.`shop`.`clicks` (id BIGINT, url STRING, ts TIMESTAMP(3))"
          + " WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";

  @Test
  void aggregateOverAChangeStreamIsUpdating() {
    QueryAnalysis analysis = ANALYZER.analyze(table("SELECT `orders`.`ds`, COUNT(*) AS `n` FROM `default_catalog`.`shop`.`orders` AS `orders` GROUP BY `orders`.`ds`", "orders", CDC_ORDERS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.STREAMABLE);
    assertThat(analysis.changelogMode()).isEqualTo("[I,UA,D]");
    assertThat(analysis.updating()).isTrue();
  }

  @Test
  void projectionOverAnAppendStreamIsInsertOnly() {
    QueryAnalysis analysis = ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks`", "clicks", APPEND_CLICKS));

    assertThat(analysis.changelogMode()).isEqualTo("[I]");
    assertThat(analysis.updating()).isFalse();
  }

  @Test
  void sortOnANonTimeColumnCannotRunAsAStream() {
    QueryAnalysis analysis = ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks` ORDER BY `clicks`.`url`", "clicks", APPEND_CLICKS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.NOT_STREAMABLE);
    assertThat(analysis.detail()).isNotBlank();
  }

  @Test
  void aQueryThatDoesNotCompileAtAllIsUnknownNotUnstreamable() {
    QueryAnalysis analysis = ANALYZER.analyze(table("SELECT `x`.`nope` FROM `default_catalog`.`shop`.`missing` AS `x`", "clicks", APPEND_CLICKS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(analysis.detail()).contains("does not validate here");
  }

  @Test
  void theGroupByIsTheDerivedKey() {
    QueryAnalysis analysis = ANALYZER.analyze(table("SELECT `orders`.`ds`, SUM(`orders`.`amount`) AS `total` FROM `default_catalog`.`shop`.`orders` AS `orders` GROUP BY `orders`.`ds`", "orders", CDC_ORDERS));

    assertThat(analysis.uniqueKeys()).containsExactly(List.of("ds"));
    assertThat(analysis.statefulOperators()).containsExactly("group aggregation");
  }

  @Test
  void aJoinKeepsTheKeysOfBothSidesWhenSelected() {
    QueryAnalysis analysis =
        ANALYZER.analyze(
            table(
                "SELECT `u`.`id` AS `user_id`, `d`.`id` AS `domain_id`, `d`.`domain` FROM `default_catalog`.`shop`.`users` AS `u`"
                    + " INNER JOIN `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` = `d`.`user_id`",
                List.of(source("users", CDC_USERS), source("domains", CDC_DOMAINS))));

    assertThat(analysis.changelogMode()).isEqualTo("[I,UB,UA,D]");
    assertThat(analysis.uniqueKeys()).containsExactly(List.of("domain_id"));
    assertThat(analysis.statefulOperators()).containsExactly("regular join");
    assertThat(analysis.latestValueSources()).containsExactly("default_catalog.shop.users", "default_catalog.shop.domains");
  }

  @Test
  void aJoinThatDropsTheUniqueColumnsHasNoKey() {
    QueryAnalysis analysis =
        ANALYZER.analyze(
            table(
                "SELECT `u`.`id` AS `user_id`, `d`.`domain` FROM `default_catalog`.`shop`.`users` AS `u`"
                    + " INNER JOIN `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` = `d`.`user_id`",
                List.of(source("users", CDC_USERS), source("domains", CDC_DOMAINS))));

    assertThat(analysis.updating()).isTrue();
    assertThat(analysis.uniqueKeys()).isEmpty();
  }

  @Test
  void aStateTtlHintSilencesTheUnboundedStateOfItsJoin() {
    QueryAnalysis analysis =
        ANALYZER.analyze(
            table(
                "SELECT /*+ STATE_TTL('u' = '1d', 'd' = '1d') */ `u`.`id` AS `user_id`, `d`.`id` AS `domain_id` FROM `default_catalog`.`shop`.`users` AS `u`"
                    + " INNER JOIN `default_catalog`.`shop`.`domains` AS `d` ON `u`.`id` = `d`.`user_id`",
                List.of(source("users", CDC_USERS), source("domains", CDC_DOMAINS))));

    assertThat(analysis.statefulOperators()).doesNotContain("regular join");
  }

  @Test
  void currentTimeInFiltersIsFoundButNotInTheSelectList() {
    QueryAnalysis filtered =
        ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks` WHERE `clicks`.`ts` > NOW() - INTERVAL '1' DAY", "clicks", APPEND_CLICKS));
    QueryAnalysis selected =
        ANALYZER.analyze(table("SELECT `clicks`.`url`, CURRENT_TIMESTAMP AS `seen` FROM `default_catalog`.`shop`.`clicks` AS `clicks`", "clicks", APPEND_CLICKS));

    assertThat(filtered.timeFunctionsInConditions()).containsExactly("NOW");
    assertThat(selected.timeFunctionsInConditions()).isEmpty();
  }

  @Test
  void aChangeStreamCannotBeReadAsABatchButAnAppendStreamCanUpToItsLatestOffsets() {
    QueryAnalysis cdc = ANALYZER.analyze(table("SELECT `orders`.`ds` FROM `default_catalog`.`shop`.`orders` AS `orders`", "orders", CDC_ORDERS));
    QueryAnalysis append = ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks`", "clicks", APPEND_CLICKS));

    assertThat(cdc.batch().runs()).isFalse();
    assertThat(cdc.batch().detail()).contains("INSERT-only");
    assertThat(append.batch().runs()).isTrue();
    assertThat(append.latestValueSources()).isEmpty();
  }

  private static TableDefinition.SourceTable source(String name, String statement) {
    return new TableDefinition.SourceTable("default_catalog.shop." + name, TableDefinition.Kind.SOURCE_TABLE, 1, statement);
  }

  private static TableDefinition table(String expanded, String source, String statement) {
    return table(expanded, List.of(source(source, statement)));
  }

  private static TableDefinition table(String expanded, List<TableDefinition.SourceTable> sources) {
    return new TableDefinition(
        "default_catalog.shop.mt", 1, TableDefinition.Kind.MATERIALIZED_TABLE, "x", List.of(new TableDefinition.Column("a", "STRING", true)),
        List.of(), List.of(), null, Map.of(), null, null, TableDefinition.RefreshMode.AUTO, new TableDefinition.Query(expanded, expanded),
        sources,
        TableDefinition.Status.ACTIVE, Map.of(), Instant.EPOCH, Instant.EPOCH, null);
  }
}
