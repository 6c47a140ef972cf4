package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The examples end to end: PostgreSQL, cdc-capture-service (Debezium), Kafka, ddl-service,
 * planner-service, job-manager-service, Flink and Paimon, each materialized table compared with
 * the same query run by PostgreSQL after a seeded workload; one run kills the capture with SIGKILL
 * halfway and starts it again.
 */
class OracleAcrossServicesIT {

  private static final Path DATA = Path.of("target/oracle-data").toAbsolutePath();
  private static final int FLINK_PORT = 18385;
  private static final String SCHEMA = "oracle_" + UUID.randomUUID().toString().substring(0, 8);
  private static final String SLOT = "mt_cdc_" + SCHEMA;
  private static final Postgres POSTGRES = Postgres.local();
  private static ServiceProcess ddl;
  private static ServiceProcess planner;
  private static ServiceProcess jobManager;
  private static ServiceProcess cdc;
  private static ServiceProcess scheduler;

  @BeforeAll
  static void startServices() throws Exception {
    deleteRecursively(DATA);
    // The tables exist before the capture starts: its publication is made for the tables it finds.
    for (Example example : Example.all()) {
      harness(example, 0, Duration.ZERO).preparePostgres();
    }
    cdc = cdc().start();
    ddl = new ServiceProcess("ddl-service", 18081, "mt.data-dir=" + DATA).start();
    planner = new ServiceProcess("planner-service", 18082).start();
    jobManager = new ServiceProcess(
        "job-manager-service", 18084, "mt.data-dir=" + DATA, "mt.flink.embedded.port=" + FLINK_PORT, "mt.flink.embedded.task-slots=4",
        "mt.jobs.include=default_catalog\\." + SCHEMA + "\\..*").start();
    scheduler = new ServiceProcess("refresh-scheduler-service", 18083, "mt.scheduler.catch-up-window=2s").start();
  }

  private static ServiceProcess cdc() {
    return new ServiceProcess("cdc-capture-service", 18086, "mt.cdc.tables=" + SCHEMA + "\\..*", "mt.cdc.slot-name=" + SLOT, "mt.cdc.publication=" + SLOT,
        "mt.cdc.offsets-topic=mt.cdc.offsets." + SCHEMA);
  }

  @AfterAll
  static void stopServices() throws Exception {
    for (ServiceProcess service : new ServiceProcess[] {scheduler, jobManager, planner, ddl, cdc}) {
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
  void usersJoinDomainsEqualsPostgresAfterEachSeedAndAfterTheCaptureIsKilled() throws Exception {
    Example example = Example.named("users-domains");
    harness(example, 1, Duration.ZERO).declareTables();

    Harness.Report first = harness(example, 1, Duration.ofSeconds(30)).run(() -> {});
    assertThat(first.differingRows()).as("seed 1").isZero();

    Harness.Report killed = harness(example, 2, Duration.ofSeconds(30)).run(OracleAcrossServicesIT::killAndRestartCapture);
    assertThat(killed.differingRows()).as("seed 2, the capture killed with SIGKILL halfway").isZero();
    assertThat(killed.changes()).isPositive();
  }

  @Test
  void theDashboardsTiersEqualPostgresAndARefreshedPartitionIsTheOnlyOneThatChanges() throws Exception {
    Example example = Example.named("orders-dashboard");
    harness(example, 3, Duration.ZERO).declareTables();

    Harness.Report report = harness(example, 3, Duration.ofSeconds(30)).run(() -> {});
    assertThat(report.differingRows()).as("seed 3, all four tables").isZero();

    // One order of the first day changes, one of the last day too; only the first day is refreshed.
    String first = POSTGRES.rows("SELECT min(to_char(order_ts, 'YYYY-MM-DD')) FROM " + SCHEMA + ".orders").get(0).get(0);
    String last = POSTGRES.rows("SELECT max(to_char(order_ts, 'YYYY-MM-DD')) FROM " + SCHEMA + ".orders").get(0).get(0);
    List<List<String>> before = statements().rows("SELECT ds, orders, revenue FROM " + SCHEMA + ".orders_daily WHERE ds = '" + last + "'");
    POSTGRES.execute(List.of(
        "UPDATE " + SCHEMA + ".orders SET amount = amount + 1 WHERE id = (SELECT min(id) FROM " + SCHEMA + ".orders WHERE to_char(order_ts, 'YYYY-MM-DD') = '" + first + "')",
        "UPDATE " + SCHEMA + ".orders SET amount = amount + 1 WHERE id = (SELECT min(id) FROM " + SCHEMA + ".orders WHERE to_char(order_ts, 'YYYY-MM-DD') = '" + last + "')"));
    String day = "SELECT to_char(order_ts, 'YYYY-MM-DD'), COUNT(*), SUM(amount) FROM " + SCHEMA + ".orders WHERE to_char(order_ts, 'YYYY-MM-DD') = '";
    List<List<String>> expectedFirst = POSTGRES.rows(day + first + "' GROUP BY 1");
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() ->
        assertThat(statements().rows("SELECT ds, SUM(amount) FROM " + SCHEMA + ".orders_ods WHERE ds = '" + first + "' GROUP BY ds"))
            .containsExactly(List.of(first, expectedFirst.get(0).get(2))));

    statements().send("ALTER MATERIALIZED TABLE " + SCHEMA + ".orders_daily REFRESH PARTITION (ds = '" + first + "')");

    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() ->
        assertThat(statements().rows("SELECT ds, orders, revenue FROM " + SCHEMA + ".orders_daily WHERE ds = '" + first + "'")).isEqualTo(expectedFirst));
    assertThat(statements().rows("SELECT ds, orders, revenue FROM " + SCHEMA + ".orders_daily WHERE ds = '" + last + "'"))
        .as("the other day was not refreshed: it still holds the old amount").isEqualTo(before);
  }

  @Test
  void aTumbleWindowAggregationEqualsPostgresForEveryClosedWindow() throws Exception {
    Example example = Example.named("clicks-per-minute");
    harness(example, 4, Duration.ZERO).declareTables();

    Harness.Report report = harness(example, 4, Duration.ofSeconds(30)).run(() -> {});

    assertThat(report.differingRows()).as("seed 4").isZero();
    assertThat(report.results().get(0).postgresRows()).as("windows compared").isGreaterThan(10);
  }

  private static Statements statements() {
    return new Statements("http://127.0.0.1:18081");
  }

  private static void killAndRestartCapture() {
    try {
      cdc.kill();
      cdc = cdc().start();
    } catch (Exception e) {
      throw new IllegalStateException("restarting cdc-capture-service", e);
    }
  }

  private static Harness harness(Example example, long seed, Duration duration) {
    return new Harness(
        new Harness.Settings(example, SCHEMA, "cdc", KafkaBroker.bootstrapServers(), seed, duration, 50, Duration.ofMinutes(3)),
        POSTGRES, new Statements("http://127.0.0.1:18081"), System.out);
  }

  private static void deleteRecursively(Path root) throws Exception {
    if (Files.exists(root)) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
