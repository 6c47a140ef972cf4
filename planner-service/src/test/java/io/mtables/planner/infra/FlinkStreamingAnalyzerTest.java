package io.mtables.planner.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.planner.domain.StreamingAnalysis;
import io.mtables.planner.domain.StreamingAnalysis.Verdict;
import io.mtables.schemas.catalog.TableDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlinkStreamingAnalyzerTest {

  private static final FlinkStreamingAnalyzer ANALYZER = new FlinkStreamingAnalyzer();
  private static final String CDC_ORDERS =
      "CREATE TABLE `default_catalog`.`shop`.`orders` (id BIGINT, ds STRING, amount DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED)"
          + " WITH ('connector' = 'kafka', 'topic' = 'o', 'format' = 'debezium-json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";
  private static final String APPEND_CLICKS =
      "CREATE TABLE `default_catalog`.`shop`.`clicks` (id BIGINT, url STRING, ts TIMESTAMP(3))"
          + " WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json', 'properties.bootstrap.servers' = 'x:1', 'scan.startup.mode' = 'earliest-offset')";

  @Test
  void aggregateOverAChangeStreamIsUpdating() {
    StreamingAnalysis analysis = ANALYZER.analyze(table("SELECT `orders`.`ds`, COUNT(*) AS `n` FROM `default_catalog`.`shop`.`orders` AS `orders` GROUP BY `orders`.`ds`", "orders", CDC_ORDERS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.STREAMABLE);
    assertThat(analysis.changelogMode()).isEqualTo("[I,UA,D]");
    assertThat(analysis.updating()).isTrue();
  }

  @Test
  void projectionOverAnAppendStreamIsInsertOnly() {
    StreamingAnalysis analysis = ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks`", "clicks", APPEND_CLICKS));

    assertThat(analysis.changelogMode()).isEqualTo("[I]");
    assertThat(analysis.updating()).isFalse();
  }

  @Test
  void sortOnANonTimeColumnCannotRunAsAStream() {
    StreamingAnalysis analysis = ANALYZER.analyze(table("SELECT `clicks`.`url` FROM `default_catalog`.`shop`.`clicks` AS `clicks` ORDER BY `clicks`.`url`", "clicks", APPEND_CLICKS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.NOT_STREAMABLE);
    assertThat(analysis.detail()).isNotBlank();
  }

  @Test
  void aQueryThatDoesNotCompileAtAllIsUnknownNotUnstreamable() {
    StreamingAnalysis analysis = ANALYZER.analyze(table("SELECT `x`.`nope` FROM `default_catalog`.`shop`.`missing` AS `x`", "clicks", APPEND_CLICKS));

    assertThat(analysis.verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(analysis.detail()).contains("does not validate here");
  }

  private static TableDefinition table(String expanded, String source, String statement) {
    return new TableDefinition(
        "default_catalog.shop.mt", 1, TableDefinition.Kind.MATERIALIZED_TABLE, "x", List.of(new TableDefinition.Column("a", "STRING", true)),
        List.of(), List.of(), null, Map.of(), null, null, TableDefinition.RefreshMode.AUTO, new TableDefinition.Query(expanded, expanded),
        List.of(new TableDefinition.SourceTable("default_catalog.shop." + source, TableDefinition.Kind.SOURCE_TABLE, 1, statement)),
        TableDefinition.Status.ACTIVE, Map.of(), Instant.EPOCH, Instant.EPOCH, null);
  }
}
