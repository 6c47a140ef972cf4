package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;

/**
 * The cost of refreshing what changed: after one day of 90 changes in a CONTINUOUS table
 * partitioned by day (the ODS layer), the same FULL query refreshed into a table without partitions
 * (recomputed whole: the baseline) and into one partitioned by day (only the changed day
 * overwritten, as its plan's CHANGED_PARTITIONS allows), in the same run, through the REST front
 * door; the times are those of the refresh jobs as the job manager reports them (JobStarted to
 * RefreshSucceeded). Then the partitioned table refreshed again with nothing changed: NO_DATA, no
 * job, timed in the job manager and from the REST request to the event.
 *
 * <p>Arguments: ddl-service URL, Kafka bootstrap servers, rows per day, rounds, warehouse.
 */
public final class RefreshCostBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int DAYS = 90;
    private static final LocalDate FIRST_DAY = LocalDate.parse("2026-09-01");

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        String bootstrap = args[1];
        int rowsPerDay = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        String warehouse = args[4];
        MachineFacts.print("refresh cost: one changed partition of 90 versus the whole table");
        String topic = "bench_sales_" + UUID.randomUUID().toString().substring(0, 8);
        long id = 0;
        try (KafkaProducer<String, String> producer = producer(bootstrap);
                KafkaConsumer<String, String> events = eventsConsumer(bootstrap)) {
            for (int day = 0; day < DAYS; day++) {
                id = sales(producer, topic, FIRST_DAY.plusDays(day).toString(), rowsPerDay, id);
            }
            producer.flush();
            long total = id;
            System.out.printf("source: %,d rows over %d days in topic %s%n", total, DAYS, topic);

            Statements.post(
                    ddl,
                    "CREATE TABLE bench.sales (id BIGINT, ds STRING, amount DECIMAL(10, 2)) WITH"
                            + " ('connector' = 'kafka', 'topic' = '"
                            + topic
                            + "', 'format' = 'json', 'properties.bootstrap.servers' = '"
                            + bootstrap
                            + "', 'scan.startup.mode' = 'earliest-offset')");
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE bench.sales_ods PARTITIONED BY (ds) FRESHNESS ="
                            + " INTERVAL '5' SECOND AS SELECT id, ds, amount FROM bench.sales");
            awaitRows(warehouse, "bench", "sales_ods", total);
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE bench.sales_daily PARTITIONED BY (ds) WITH"
                            + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd') FRESHNESS ="
                            + " INTERVAL '1' DAY REFRESH_MODE = FULL AS SELECT ds, COUNT(*) AS n,"
                            + " SUM(amount) AS total FROM bench.sales_ods GROUP BY ds");
            refreshOf(
                    events,
                    "default_catalog.bench.sales_daily",
                    e -> true); // the new table's catch-up refresh
            // The baseline: the same query into a table without partitions, which every refresh
            // recomputes whole.
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE bench.sales_daily_whole FRESHNESS = INTERVAL '1' DAY"
                        + " REFRESH_MODE = FULL AS SELECT ds, COUNT(*) AS n, SUM(amount) AS total"
                        + " FROM bench.sales_ods GROUP BY ds");
            refreshOf(events, "default_catalog.bench.sales_daily_whole", e -> true);

            List<Timing> whole = new ArrayList<>();
            List<Timing> changed = new ArrayList<>();
            List<Long> noChangeInJobManager = new ArrayList<>();
            List<Long> noChangeEndToEnd = new ArrayList<>();
            String table = "default_catalog.bench.sales_daily";
            for (int round = 0; round < rounds; round++) {
                // One day changes; the table without partitions recomputes all 90, the partitioned
                // one overwrites the changed day only (its plan: CHANGED_PARTITIONS).
                String changedDay = FIRST_DAY.plusDays(round * 7L).toString();
                id = change(producer, topic, changedDay, id, warehouse);
                Statements.post(ddl, "ALTER MATERIALIZED TABLE bench.sales_daily_whole REFRESH");
                whole.add(
                        refreshOf(
                                events,
                                "default_catalog.bench.sales_daily_whole",
                                e -> !noData(e)));
                Statements.post(ddl, "ALTER MATERIALIZED TABLE bench.sales_daily REFRESH");
                changed.add(
                        refreshOf(events, table, e -> !noData(e) && requireOnly(e, changedDay)));

                // Nothing changed since: the same refresh again runs no job.
                for (int again = 0; again < NO_CHANGE_REFRESHES; again++) {
                    long sent = System.nanoTime();
                    Statements.post(ddl, "ALTER MATERIALIZED TABLE bench.sales_daily REFRESH");
                    noChangeInJobManager.add(
                            refreshOf(events, table, RefreshCostBench::requireNoData).total());
                    noChangeEndToEnd.add((System.nanoTime() - sent) / 1_000_000);
                }
            }
            System.out.println();
            System.out.println("whole table (90 days) refresh:      " + timingSummary(whole));
            System.out.println("changed day only refresh:           " + timingSummary(changed));
            System.out.printf(
                    "ratio of medians (changed day / whole): %.3f  (goal <= 0.033 at 10,000 rows a"
                            + " day, <= 0.017 at 100,000)%n",
                    (double) median(totals(changed)) / median(totals(whole)));
            System.out.println(
                    "no-change refresh, in the job manager (request read to NO_DATA): "
                            + summary(noChangeInJobManager)
                            + ", p99 "
                            + percentile(noChangeInJobManager, 0.99)
                            + " ms");
            System.out.println(
                    "no-change refresh, end to end (REST request to NO_DATA event):   "
                            + summary(noChangeEndToEnd)
                            + ", p99 "
                            + percentile(noChangeEndToEnd, 0.99)
                            + " ms  (goal p99 <= 100 ms, no Flink job)");
        }
    }

    private static final int NO_CHANGE_REFRESHES = 20;

    /** 100 more rows on {@code ds}, waited for in the ODS table; the next id. */
    private static long change(
            KafkaProducer<String, String> producer,
            String topic,
            String ds,
            long fromId,
            String warehouse)
            throws Exception {
        long id = sales(producer, topic, ds, 100, fromId);
        producer.flush();
        awaitRows(warehouse, "bench", "sales_ods", id);
        return id;
    }

    private static boolean noData(JsonNode event) {
        return event.path("outcome").asText().equals("NO_DATA");
    }

    /** The refresh overwrote exactly the changed day, as its event says. */
    private static boolean requireOnly(JsonNode event, String day) {
        List<String> days = event.path("changedPartitions").findValuesAsText("ds");
        if (!days.equals(List.of(day))) {
            throw new IllegalStateException(
                    "the refresh after a change of "
                            + day
                            + " overwrote "
                            + (event.has("changedPartitions") ? days : "the whole table")
                            + ": "
                            + event);
        }
        return true;
    }

    private static boolean requireNoData(JsonNode event) {
        if (!noData(event)) {
            throw new IllegalStateException("a refresh of unchanged inputs ran a job: " + event);
        }
        return true;
    }

    private static long sales(
            KafkaProducer<String, String> producer,
            String topic,
            String ds,
            int rows,
            long fromId) {
        long id = fromId;
        for (int i = 0; i < rows; i++) {
            id++;
            producer.send(
                    new ProducerRecord<>(
                            topic,
                            String.valueOf(id),
                            "{\"id\":"
                                    + id
                                    + ",\"ds\":\""
                                    + ds
                                    + "\",\"amount\":"
                                    + (id % 10_000) / 100.0
                                    + "}"));
        }
        return id;
    }

    /**
     * Waits until the CONTINUOUS table's latest snapshot holds {@code total} rows (Paimon's own
     * count).
     */
    private static void awaitRows(String warehouse, String database, String name, long total)
            throws Exception {
        Options options = new Options();
        options.set("warehouse", warehouse);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            long rows = 0;
            while (rows < total) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            database
                                    + "."
                                    + name
                                    + " holds "
                                    + rows
                                    + " of "
                                    + total
                                    + " rows after 10 minutes");
                }
                Thread.sleep(500);
                try {
                    Snapshot latest =
                            ((FileStoreTable) catalog.getTable(Identifier.create(database, name)))
                                    .snapshotManager()
                                    .latestSnapshot();
                    rows =
                            latest == null || latest.totalRecordCount() == null
                                    ? 0
                                    : latest.totalRecordCount();
                } catch (Catalog.TableNotExistException notYet) {
                    rows = 0;
                }
            }
        }
    }

    private static final List<ConsumerRecord<String, String>> PENDING = new ArrayList<>();

    /**
     * One refresh, in milliseconds: the whole (the job manager taking it up to Paimon's commit), of
     * which compiling and submitting its job (to JobStarted) and running it (JobStarted to the
     * commit), and the commit to the RefreshSucceeded event (the job manager noticing the job's
     * end).
     */
    record Timing(long total, long submit, long run, long announce) {}

    /** The next refresh of {@code table} that matches. */
    private static Timing refreshOf(
            KafkaConsumer<String, String> events, String table, Predicate<JsonNode> matching)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        Instant jobStarted = null;
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<String, String>> records = new ArrayList<>(PENDING);
            PENDING.clear();
            events.poll(Duration.ofMillis(500)).forEach(records::add);
            for (ConsumerRecord<String, String> record : records) {
                JsonNode event = JSON.readTree(record.value());
                if (table.equals(record.key())
                        && event.has("jobName")
                        && event.path("mode").asText().equals("FULL")) {
                    jobStarted = Instant.parse(event.path("startedAt").asText());
                }
                if (table.equals(record.key())
                        && event.path("mode").asText().equals("FULL")
                        && event.has("snapshotId")
                        && matching.test(event)) {
                    Instant started = Instant.parse(event.path("startedAt").asText());
                    Instant finished = Instant.parse(event.path("finishedAt").asText());
                    Instant submitted = jobStarted == null ? started : jobStarted;
                    return new Timing(
                            Duration.between(started, finished).toMillis(),
                            Duration.between(started, submitted).toMillis(),
                            Duration.between(submitted, finished).toMillis(),
                            record.timestamp() - finished.toEpochMilli());
                }
                if (table.equals(record.key()) && event.has("consecutiveFailures")) {
                    throw new IllegalStateException(
                            "the refresh of "
                                    + table
                                    + " failed: "
                                    + event.path("reason").asText());
                }
            }
        }
        throw new IllegalStateException("no refresh of " + table + " within 10 minutes");
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> eventsConsumer(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions =
                consumer.partitionsFor("mt.refresh.events", Duration.ofSeconds(30)).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        return consumer;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static long percentile(List<Long> values, double fraction) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(
                Math.min(sorted.size() - 1, (int) Math.ceil(fraction * sorted.size()) - 1));
    }

    private static List<Long> totals(List<Timing> timings) {
        return timings.stream().map(Timing::total).toList();
    }

    /** The totals, and the medians of their parts. */
    private static String timingSummary(List<Timing> timings) {
        return summary(totals(timings))
                + "  each: "
                + totals(timings)
                + "\n    of which, medians: compile and submit "
                + median(timings.stream().map(Timing::submit).toList())
                + " ms, Flink runs the job to its commit "
                + median(timings.stream().map(Timing::run).toList())
                + " ms; then commit to event "
                + median(timings.stream().map(Timing::announce).toList())
                + " ms";
    }

    private static String summary(List<Long> millis) {
        return "median "
                + median(millis)
                + " ms, min "
                + Collections.min(millis)
                + " ms, max "
                + Collections.max(millis)
                + " ms";
    }
}
