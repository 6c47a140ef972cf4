package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.oracle.Statements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new query for a running CONTINUOUS table, for each verdict, under a running load of inserts
 * into PostgreSQL captured by Debezium: a reader polling SELECT through ddl-service every 100 ms
 * never sees the table empty, a row gone that it saw before, a key twice, or a count go back; and
 * the table ends equal to PostgreSQL's answer to the new query.
 */
class QueryChangeAcrossServicesIT {

  private static final ExampleServices SERVICES = new ExampleServices("evolution", 18680, 8, "1g");
  private static final String SCHEMA = SERVICES.schema();
  private static final io.mtables.oracle.Postgres POSTGRES = ExampleServices.POSTGRES;
  private static final int CATEGORIES = 7;
  private static final AtomicLong NEXT_ID = new AtomicLong(1);

  @BeforeAll
  static void startServices() throws Exception {
    POSTGRES.execute(List.of("CREATE SCHEMA IF NOT EXISTS " + SCHEMA,
        "CREATE TABLE " + SCHEMA + ".items (id BIGINT PRIMARY KEY, category TEXT NOT NULL, amount BIGINT NOT NULL)"));
    insert(2_000);
    SERVICES.start(false, List.of());
    statements().send("CREATE TABLE " + SCHEMA + ".items (id BIGINT NOT NULL, category STRING, amount BIGINT, PRIMARY KEY (id) NOT ENFORCED)"
        + " WITH ('connector' = 'kafka', 'topic' = 'cdc." + SCHEMA + ".items', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
        + io.mtables.testing.kafka.KafkaBroker.bootstrapServers() + "', 'scan.startup.mode' = 'earliest-offset')");
  }

  @AfterAll
  static void stopServices() throws Exception {
    SERVICES.close();
  }

  @Test
  void anAddedColumnIsCompatibleAndReadersMoveFromTheOldRowsToTheNewOnes() throws Exception {
    changeUnderLoad("items_copy", "COMPATIBLE",
        "SELECT id, category, amount FROM " + SCHEMA + ".items",
        "SELECT id, category, amount, UPPER(category) AS shout FROM " + SCHEMA + ".items",
        "id");
  }

  @Test
  void anAddedAggregateIsIncompatibleAndNoCountEverGoesBack() throws Exception {
    changeUnderLoad("by_category", "INCOMPATIBLE",
        "SELECT category, COUNT(*) AS n, SUM(amount) AS total FROM " + SCHEMA + ".items GROUP BY category",
        "SELECT category, COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS largest FROM " + SCHEMA + ".items GROUP BY category",
        "category");
  }

  @Test
  void aFilterFlinkMovesIntoTheChangelogIsUnknownAndTheWiderAnswerArrivesWhole() throws Exception {
    changeUnderLoad("big_by_category", "UNKNOWN",
        "SELECT category, COUNT(*) AS n FROM " + SCHEMA + ".items WHERE amount > 50 GROUP BY category",
        "SELECT category, COUNT(*) AS n FROM " + SCHEMA + ".items WHERE amount > 20 GROUP BY category",
        "category");
  }

  /**
   * Creates {@code table} with {@code oldQuery}, waits until it equals PostgreSQL's answer to the
   * same query, then changes its query while rows are inserted and a reader polls it; the change
   * must be switched over, and the table end equal to PostgreSQL's answer to {@code newQuery}. Every
   * number in these tables only grows with inserts, and each new query's answer holds at least the
   * old one's: so any read that loses a row, repeats a key or counts less than a read before it
   * saw a table that was neither the old answer nor the new.
   */
  private static void changeUnderLoad(String table, String verdict, String oldQuery, String newQuery, String key) throws Exception {
    String name = SCHEMA + "." + table;
    statements().send("CREATE MATERIALIZED TABLE " + name + " FRESHNESS = INTERVAL '2' SECOND AS " + oldQuery);
    awaitEqual(name, oldQuery);

    ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
    load.scheduleWithFixedDelay(() -> insertQuietly(5), 0, 50, TimeUnit.MILLISECONDS);
    Reader reader = new Reader(name, key);
    try {
      var altered = statements().send("ALTER MATERIALIZED TABLE " + name + " AS " + newQuery);
      assertThat(altered.path("message").asText()).contains("The running job's state: " + verdict);
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
          .untilAsserted(() -> assertThat(describe(name, "last_change.done")).startsWith("switched over at"));
      await().atMost(Duration.ofSeconds(30)).until(() -> reader.readsWithColumns(columns(newQuery)) >= 20); // the new answer read under load
    } finally {
      load.shutdown();
      load.awaitTermination(10, TimeUnit.SECONDS);
      reader.stop();
    }
    awaitEqual(name, newQuery);
    reader.assertNothingLostOrRepeated();
    if (columns(oldQuery) != columns(newQuery)) {
      assertThat(reader.columnCounts()).as("reads of the old answer, then of the new one").containsExactly(columns(oldQuery), columns(newQuery));
    }
    assertThat(describe(name, "last_change.verdict")).isEqualTo(verdict);
  }

  private static int columns(String query) {
    return query.substring(0, query.indexOf(" FROM ")).split(",").length;
  }

  /** Reads the table every 100 ms through ddl-service, as a dashboard would. */
  private static final class Reader {
    private final String table;
    private final String key;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<List<List<String>>> reads = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    Reader(String table, String key) {
      this.table = table;
      this.key = key;
      timer.scheduleWithFixedDelay(this::read, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void read() {
      try {
        var rows = statements().rows("SELECT * FROM " + table + " ORDER BY " + key);
        synchronized (reads) {
          reads.add(rows);
        }
      } catch (RuntimeException e) {
        synchronized (reads) {
          failures.add(e.getMessage());
        }
      }
    }

    void stop() throws InterruptedException {
      timer.shutdown();
      timer.awaitTermination(30, TimeUnit.SECONDS);
    }

    long readsWithColumns(int columns) {
      synchronized (reads) {
        return reads.stream().filter(rows -> !rows.isEmpty() && rows.get(0).size() == columns).count();
      }
    }

    List<Integer> columnCounts() {
      List<Integer> counts = new ArrayList<>();
      for (var rows : reads) {
        int columns = rows.isEmpty() ? 0 : rows.get(0).size();
        if (counts.isEmpty() || counts.get(counts.size() - 1) != columns) {
          counts.add(columns);
        }
      }
      return counts;
    }

    /**
     * No read failed or was empty; no key twice in a read; every key a read saw is in every later
     * read, its numbers (columns 2 and on that are numbers) never lower than before.
     */
    void assertNothingLostOrRepeated() {
      assertThat(failures).as("reads that failed").isEmpty();
      assertThat(reads).as("reads").hasSizeGreaterThan(20);
      Map<String, List<String>> seen = new HashMap<>();
      for (int i = 0; i < reads.size(); i++) {
        var rows = reads.get(i);
        assertThat(rows).as("read %d", i).isNotEmpty();
        Map<String, List<String>> byKey = new HashMap<>();
        for (var row : rows) {
          assertThat(byKey.put(row.get(0), row)).as("read %d: key %s twice", i, row.get(0)).isNull();
        }
        for (var before : seen.entrySet()) {
          List<String> now = byKey.get(before.getKey());
          assertThat(now).as("read %d: key %s, seen before as %s, is gone", i, before.getKey(), before.getValue()).isNotNull();
          for (int column = 1; column < Math.min(now.size(), before.getValue().size()); column++) {
            String was = before.getValue().get(column);
            if (was != null && was.matches("-?\\d+") && now.get(column) != null) {
              assertThat(Long.parseLong(now.get(column))).as("read %d: key %s column %d went back from %s", i, before.getKey(), column, was)
                  .isGreaterThanOrEqualTo(Long.parseLong(was));
            }
          }
        }
        seen.putAll(byKey);
      }
    }
  }

  private static void awaitEqual(String table, String postgresQuery) {
    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
        assertThat(sorted(statements().rows("SELECT * FROM " + table))).isEqualTo(sorted(POSTGRES.rows(postgresQuery))));
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> String.join("|", a).compareTo(String.join("|", b)));
    return copy;
  }

  private static void insertQuietly(int rows) {
    try {
      insert(rows);
    } catch (Exception e) {
      throw new IllegalStateException("inserting into PostgreSQL", e);
    }
  }

  private static void insert(int rows) throws Exception {
    try (Connection connection = POSTGRES.connect();
        PreparedStatement insert = connection.prepareStatement("INSERT INTO " + SCHEMA + ".items VALUES (?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        long id = NEXT_ID.getAndIncrement();
        insert.setLong(1, id);
        insert.setString(2, "category_" + (id * 7919 % CATEGORIES));
        insert.setLong(3, id * 31 % 100);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  private static String describe(String table, String property) {
    return statements().rows("DESCRIBE MATERIALIZED TABLE " + table).stream()
        .filter(row -> row.get(0).equals(property)).map(row -> row.get(1)).findFirst().orElse(null);
  }

  private static Statements statements() {
    return SERVICES.statements();
  }
}
