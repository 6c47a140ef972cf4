package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Postgres;
import io.mtables.oracle.Statements;
import io.mtables.testing.kafka.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
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

  private static final Path DATA = Path.of("target/shapes-data").toAbsolutePath();
  private static final int FLINK_PORT = 18485;
  private static final String SCHEMA = "shapes_" + UUID.randomUUID().toString().substring(0, 8);
  private static final String SLOT = "mt_cdc_" + SCHEMA;
  private static final Postgres POSTGRES = Postgres.local();
  private static final Example SHAPES = Example.named("shapes");
  private static ServiceProcess ddl;
  private static ServiceProcess planner;
  private static ServiceProcess jobManager;
  private static ServiceProcess cdc;

  @BeforeAll
  static void startServices() throws Exception {
    deleteRecursively(DATA);
    harness(0, Duration.ZERO).preparePostgres();
    cdc = cdc().start();
    ddl = new ServiceProcess("ddl-service", 18481, "mt.data-dir=" + DATA).start();
    planner = new ServiceProcess("planner-service", 18482).start();
    // One streaming job, one slot, per shape.
    jobManager = new ServiceProcess(
        "job-manager-service", 18484, "mt.data-dir=" + DATA, "mt.flink.embedded.port=" + FLINK_PORT, "mt.flink.embedded.task-slots=16",
        "mt.flink.embedded.heap=1536m", "mt.jobs.include=default_catalog\\." + SCHEMA + "\\..*").start();
  }

  private static ServiceProcess cdc() {
    return new ServiceProcess("cdc-capture-service", 18486, "mt.cdc.tables=" + SCHEMA + "\\..*", "mt.cdc.slot-name=" + SLOT, "mt.cdc.publication=" + SLOT,
        "mt.cdc.offsets-topic=mt.cdc.offsets." + SCHEMA);
  }

  @AfterAll
  static void stopServices() throws Exception {
    for (ServiceProcess service : new ServiceProcess[] {jobManager, planner, ddl, cdc}) {
      if (service != null) {
        service.stop();
      }
    }
    Path pidFile = DATA.resolve("flink/cluster.pid");
    if (Files.exists(pidFile)) {
      ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(p -> {
        p.destroyForcibly();
        p.onExit().join();
      });
    }
    POSTGRES.execute(List.of(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + SLOT + "' AND NOT active",
        "DROP PUBLICATION IF EXISTS " + SLOT,
        "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE"));
  }

  @Test
  void everyShapeEqualsPostgresAcrossChangesAndAKilledCaptureOrIsRefusedAtCreate() throws Exception {
    harness(5, Duration.ZERO).declareTables();
    for (List<String> refused : io.mtables.oracle.Shapes.refused(SCHEMA)) {
      assertThatThrownBy(() -> statements().send(refused.get(0)))
          .as(refused.get(0))
          .isInstanceOf(Statements.StatementFailed.class)
          .hasMessageContaining("HTTP 400")
          .hasMessageContaining("PlanRefused")
          .hasMessageContaining(refused.get(1));
    }

    Harness.Report first = harness(5, Duration.ofSeconds(30)).run(() -> {});
    assertThat(first.differingRows()).as("seed 5").isZero();
    Harness.Report killed = harness(6, Duration.ofSeconds(30)).run(ShapesAcrossServicesIT::killAndRestartCapture);
    assertThat(killed.differingRows()).as("seed 6, the capture killed with SIGKILL halfway").isZero();

    for (String table : io.mtables.oracle.Shapes.tableNames(SCHEMA)) {
      var status = statements().rows("SELECT table_name, status FROM information_schema.materialized_tables WHERE table_name = '"
          + "default_catalog." + SCHEMA + "." + table + "'");
      assertThat(status).as(table + " still runs, never suspended by its own rows").containsExactly(List.of("default_catalog." + SCHEMA + "." + table, "ACTIVATED"));
    }
    var columns = statements().send("SELECT * FROM " + SCHEMA + ".shape_global").path("columns");
    assertThat(columns.toString()).as("the synthetic key is storage, not data").doesNotContain("__mt_key");

    // docs/planner.md's table of shapes is this run's: mode and key as the plans say.
    String table = supportedShapes();
    Files.writeString(Path.of("target/supported-shapes.md"), table);
    assertThat(Files.readString(Path.of("../docs/planner.md")))
        .as("docs/planner.md holds the table this run generated (system-tests/target/supported-shapes.md)")
        .contains(table.lines().toArray(String[]::new));
  }

  /** A markdown table: each shape's query, mode, key and PostgreSQL rows, from the plans ddl-service shows. */
  private static String supportedShapes() {
    StringBuilder table = new StringBuilder("| table | query | mode | key |\n|---|---|---|---|\n");
    var queries = io.mtables.oracle.Shapes.queries("s");
    for (String name : io.mtables.oracle.Shapes.tableNames(SCHEMA)) {
      java.util.Map<String, String> plan = new java.util.HashMap<>();
      for (var row : statements().send("DESCRIBE MATERIALIZED TABLE " + SCHEMA + "." + name).path("rows")) {
        plan.put(row.path(0).asText(), row.path(1).asText());
      }
      table.append("| ").append(name).append(" | `").append(queries.get(name).replace("|", "\\|")).append("` | ").append(plan.get("plan.mode")).append(" | ")
          .append(plan.get("plan.upsert_key")).append(" |\n");
    }
    return table.toString();
  }

  private static Statements statements() {
    return new Statements("http://127.0.0.1:18481");
  }

  private static void killAndRestartCapture() {
    try {
      cdc.kill();
      cdc = cdc().start();
    } catch (Exception e) {
      throw new IllegalStateException("restarting cdc-capture-service", e);
    }
  }

  private static Harness harness(long seed, Duration duration) {
    return new Harness(
        new Harness.Settings(SHAPES, SCHEMA, "cdc", KafkaBroker.bootstrapServers(), seed, duration, 50, Duration.ofMinutes(3)),
        POSTGRES, statements(), System.out);
  }

  private static void deleteRecursively(Path root) throws Exception {
    if (Files.exists(root)) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
