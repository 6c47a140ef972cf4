package io.mtables.planner.infra;

import io.mtables.planner.domain.StreamingAnalysis;
import io.mtables.schemas.catalog.TableDefinition;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * Asks Flink's planner, in streaming mode, whether a materialized table's query runs as a stream,
 * and reads the changelog mode of the plan's root. The source tables are declared from the
 * definitions the event carries. Not thread-safe: one analysis at a time.
 */
public class FlinkStreamingAnalyzer {

  private static final String PHYSICAL_PLAN = "== Optimized Physical Plan ==";
  private static final Pattern CHANGELOG = Pattern.compile("changelogMode=(\\[[A-Z,]+\\])");

  /**
   * Flink's planner keeps Calcite's metadata provider in a thread-local set up where the planner
   * is created: every call must run on that same thread, or optimization fails with "NPE:
   * metadataHandlerProvider". So the environment lives on one thread of its own.
   */
  private final ExecutorService flinkThread;
  private final TableEnvironment env;

  public FlinkStreamingAnalyzer() {
    ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
    flinkThread =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "flink-planner");
              thread.setDaemon(true);
              thread.setContextClassLoader(classLoader); // Flink finds its factories through it
              return thread;
            });
    env = onFlinkThread(() -> TableEnvironment.create(EnvironmentSettings.inStreamingMode()));
  }

  /** What Flink's planner says about running {@code table}'s query as a stream. */
  public StreamingAnalysis analyze(TableDefinition table) {
    return onFlinkThread(() -> analyzeHere(table));
  }

  private <T> T onFlinkThread(Callable<T> work) {
    try {
      return flinkThread.submit(work).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking Flink's planner", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    }
  }

  private StreamingAnalysis analyzeHere(TableDefinition table) {
    var upstream = table.sources().stream().filter(s -> s.kind() == TableDefinition.Kind.MATERIALIZED_TABLE).map(TableDefinition.SourceTable::table).toList();
    if (!upstream.isEmpty()) {
      // Reading another materialized table means reading its Paimon changelog, which the job
      // manager declares; the planner cannot compile that read yet.
      return StreamingAnalysis.unknown("it reads materialized table(s) " + upstream + ", whose changelog is known when the job starts");
    }
    try {
      for (var source : table.sources()) {
        declare(env, source);
      }
    } catch (RuntimeException e) {
      return StreamingAnalysis.unknown("its source tables could not be declared here (" + deepestMessage(e) + ")");
    }
    // Validation first: a query that does not even validate here says nothing about streaming.
    try {
      env.sqlQuery(table.query().expanded());
    } catch (RuntimeException invalid) {
      return StreamingAnalysis.unknown("the query does not validate here (" + deepestMessage(invalid) + ")");
    }
    // A valid query that the streaming planner cannot turn into a plan cannot run as a stream.
    String plan;
    try {
      plan = env.explainSql(table.query().expanded(), ExplainDetail.CHANGELOG_MODE);
    } catch (RuntimeException streamingError) {
      return StreamingAnalysis.notStreamable(deepestMessage(streamingError));
    }
    return StreamingAnalysis.streamable(rootChangelog(plan));
  }

  private static void declare(TableEnvironment env, TableDefinition.SourceTable source) {
    String[] parts = source.table().split("\\.", 3);
    env.executeSql("CREATE DATABASE IF NOT EXISTS `" + parts[0] + "`.`" + parts[1] + "`");
    env.getCatalog(parts[0]).ifPresent(catalog -> dropQuietly(catalog, parts));
    env.executeSql(source.statement());
  }

  /** The changelog mode of the first node of the optimized physical plan: the query's output. */
  static String rootChangelog(String explain) {
    int start = explain.indexOf(PHYSICAL_PLAN);
    if (start < 0) {
      throw new IllegalStateException("no optimized physical plan in Flink's explanation");
    }
    Matcher matcher = CHANGELOG.matcher(explain.substring(start).lines().skip(1).findFirst().orElse(""));
    if (!matcher.find()) {
      throw new IllegalStateException("no changelogMode on the root of Flink's plan");
    }
    return matcher.group(1);
  }

  private static void dropQuietly(org.apache.flink.table.catalog.Catalog catalog, String[] parts) {
    try {
      catalog.dropTable(new ObjectPath(parts[1], parts[2]), true);
    } catch (Exception e) {
      throw new IllegalStateException("cannot replace " + String.join(".", parts) + " in the planner's catalog", e);
    }
  }

  private static String deepestMessage(Throwable error) {
    Throwable deepest = error;
    while (deepest.getCause() != null && deepest.getCause() != deepest) {
      deepest = deepest.getCause();
    }
    String message = deepest.getMessage() == null ? error.getMessage() : deepest.getMessage();
    return message.lines().findFirst().orElse(message).strip();
  }
}
