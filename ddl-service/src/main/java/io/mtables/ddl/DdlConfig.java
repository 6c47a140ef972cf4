package io.mtables.ddl;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;

/** ddl-service settings. */
@ConfigMapping(prefix = "mt.ddl")
public interface DdlConfig {

  /**
   * Flink's {@code materialized-table.refresh-mode.freshness-threshold}: an AUTO table with a
   * freshness below it is CONTINUOUS, else FULL (which decides the FULL-only checks here).
   */
  @WithName("freshness-threshold")
  @WithDefault("30m")
  Duration freshnessThreshold();

  /** The largest statement accepted, in bytes (UTF-8). */
  @WithDefault("262144")
  int maxStatementBytes();
}
