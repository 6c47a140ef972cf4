package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Freshness: rows committed in PostgreSQL at a steady rate flow through cdc-capture-service, Kafka
 * and a CONTINUOUS table with FRESHNESS 1 second into Paimon. Per row: from its PostgreSQL commit
 * (Debezium's source.ts_ms) and from its Kafka send (the record's mt-published-at header) to the
 * commit of the first Paimon snapshot that holds it (read with Paimon's API as snapshots appear).
 *
 * <p>Steady state only: the table is created once the services' warm-ups at start ended (they
 * compile Flink's planner and jobs on the same cores: with the writing started beside them, the
 * capture fell 8 s behind and took 30 s to catch up), the writing starts once the job runs, and the
 * rows of the first {@value #WARM_UP_SECONDS} seconds of writing are not counted (the job's and the
 * capture's JIT warm-up; a run that counted the job's start measured its start, not its freshness).
 *
 * <p>Arguments: ddl-service URL, bootstrap servers, warehouse, JDBC URL, schema, rows per second,
 * seconds, PNG path, Flink REST port, planner-service URL, job-manager-service URL.
 */
public final class FreshnessBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WARM_UP_SECONDS = 10;

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        String bootstrap = args[1];
        String warehouse = args[2];
        String jdbc = args[3];
        String schema = args[4];
        int rate = Integer.parseInt(args[5]);
        int seconds = Integer.parseInt(args[6]);
        String chart = args[7]; // the chart's name (Charts)
        int flinkPort = Integer.parseInt(args[8]);
        MachineFacts.print(
                "freshness: PostgreSQL commit and Kafka send to readable in Paimon, FRESHNESS 1"
                        + " second");
        Duration warming =
                ServiceWarmUps.await(
                        ServiceWarmUps.of(ddl, args[9], args[10]), Duration.ofMinutes(3));
        System.out.printf(
                "the services' warm-ups ended %.1f s after the bench started waiting%n",
                warming.toMillis() / 1000.0);

        Statements.post(
                ddl,
                "CREATE TABLE "
                        + schema
                        + ".events (id BIGINT NOT NULL, payload STRING, PRIMARY KEY (id) NOT"
                        + " ENFORCED) WITH ('connector' = 'kafka', 'topic' = 'cdc."
                        + schema
                        + ".events', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                        + bootstrap
                        + "',"
                        + " 'properties.isolation.level' ="
                        + " 'read_committed', 'scan.startup.mode' = 'earliest-offset')");
        Statements.post(
                ddl,
                "CREATE MATERIALIZED TABLE "
                        + schema
                        + ".events_mt FRESHNESS = INTERVAL '1' SECOND AS SELECT id, payload FROM "
                        + schema
                        + ".events");
        FileStoreTable table =
                new Warehouse(warehouse).awaitTable(schema, "events_mt", Duration.ofMinutes(2));
        String jobId =
                FlinkJobs.awaitRunning(flinkPort, "mt:default_catalog." + schema + ".events_mt:")
                        .path("jid")
                        .asText();
        CheckpointLog checkpoints = CheckpointLog.follow(flinkPort, jobId);

        Map<Long, Long> readableAt = new HashMap<>();
        Map<Long, Long> committedAt =
                new ConcurrentHashMap<>(); // checkpoint id -> Paimon commit time
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread watcher =
                new Thread(
                        () -> watchSnapshots(table, readableAt, committedAt, writing),
                        "snapshot-watcher");
        watcher.start();
        long warmUp = (long) Math.max(1, rate / 100) * 100 * WARM_UP_SECONDS;
        long measuredFrom = System.currentTimeMillis() + WARM_UP_SECONDS * 1000L;
        long writingFrom = System.currentTimeMillis();
        long written = write(jdbc, schema, rate, WARM_UP_SECONDS + seconds);
        System.out.printf(
                "wrote %,d rows in %d s (%d rows/s asked); the first %,d (%d s) warm up and are not"
                        + " counted%n",
                written, WARM_UP_SECONDS + seconds, rate, warmUp, WARM_UP_SECONDS);
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && sizeOf(readableAt) < written) {
            Thread.sleep(200);
        }
        writing.set(false);
        watcher.join();
        checkpoints.close();

        Map<Long, long[]> sent =
                changeEvents(
                        bootstrap, "cdc." + schema + ".events"); // id -> {commit ms, kafka send ms}
        RowWaits all = RowWaits.of(sent, readableAt);
        RowWaits measured = all.where(row -> row.id() > warmUp);
        List<Long> fromCommit = measured.fromCommit();
        List<Long> fromKafka = measured.fromKafka();
        System.out.println();
        System.out.printf(
                "rows measured: %,d of %,d written after the warm-up%n",
                fromCommit.size(), written - warmUp);
        System.out.println(
                "PostgreSQL commit to readable: "
                        + RowWaits.summary(fromCommit)
                        + "   (goal p99 <= 2000 ms)");
        System.out.println(
                "Kafka send to readable:        "
                        + RowWaits.summary(fromKafka)
                        + "   (goal p99 <= 1200 ms)");
        List<Long> captureLag = new ArrayList<>();
        sent.forEach(
                (id, t) -> {
                    if (id > warmUp) {
                        captureLag.add(t[1] - t[0]);
                    }
                });
        System.out.println(
                "of which PostgreSQL commit to Kafka send (the capture): "
                        + RowWaits.summary(captureLag));
        RowWaits steady = all.where(row -> row.committed() >= writingFrom + STEADY_AFTER_MS);
        System.out.printf(
                "steady state (%,d rows committed %d s or more after the writing began):%n",
                steady.size(), STEADY_AFTER_MS / 1000);
        steady.printWaits();
        all.printTimeline(
                writingFrom,
                "by commit time from the first row written (the first "
                        + WARM_UP_SECONDS
                        + " s are the warm-up)");
        printCheckpoints(checkpoints, committedAt, measuredFrom);
        Map<String, List<Long>> waits = new LinkedHashMap<>();
        waits.put("PostgreSQL commit to readable", fromCommit);
        waits.put("Kafka send to readable", fromKafka);
        Charts.distribution(chart, "Rows to readable in Paimon", "ms", waits);
    }

    /**
     * From when a run counts as steady, fixed rather than chosen per run: the cold capture's
     * backlog drained 25 to 45 s after the writing began (docs/benchmarks.md), so in slow runs the
     * tail of it still counts.
     */
    private static final long STEADY_AFTER_MS = 30_000;

    /**
     * Where a row's wait goes once it is in Kafka: to the next checkpoint, the checkpoint itself
     * (trigger to last acknowledgement), then Paimon's commit of it (acknowledged to snapshot).
     */
    private static void printCheckpoints(
            CheckpointLog log, Map<Long, Long> committedAt, long measuredFrom) {
        List<CheckpointLog.Checkpoint> measured =
                log.completed().values().stream()
                        .filter(c -> c.triggeredAt() >= measuredFrom)
                        .toList();
        if (measured.size() < 2) {
            System.out.println("checkpoints: too few seen to summarise (" + measured.size() + ")");
            return;
        }
        List<Long> durations = measured.stream().map(CheckpointLog.Checkpoint::duration).toList();
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < measured.size(); i++) {
            gaps.add(measured.get(i).triggeredAt() - measured.get(i - 1).triggeredAt());
        }
        List<Long> commits =
                measured.stream()
                        .filter(c -> committedAt.containsKey(c.id()))
                        .map(c -> committedAt.get(c.id()) - c.acknowledgedAt())
                        .toList();
        System.out.printf(
                "checkpoints while measuring: %d; trigger to acknowledged: %s%n",
                measured.size(), RowWaits.summary(durations));
        System.out.println("  between two triggers:             " + RowWaits.summary(gaps));
        if (!commits.isEmpty()) {
            System.out.println("  acknowledged to Paimon snapshot:  " + RowWaits.summary(commits));
        }
        System.out.println("  the slowest, with their slowest task:");
        measured.stream()
                .sorted((a, b) -> Long.compare(b.duration(), a.duration()))
                .limit(5)
                .forEach(
                        c ->
                                System.out.printf(
                                        "    #%d: %d ms, %,d bytes; %s; commit +%s ms%n",
                                        c.id(),
                                        c.duration(),
                                        c.checkpointedBytes(),
                                        c.slowestPart(),
                                        committedAt.containsKey(c.id())
                                                ? String.valueOf(
                                                        committedAt.get(c.id())
                                                                - c.acknowledgedAt())
                                                : "?"));
    }

    private static int sizeOf(Map<Long, Long> map) {
        synchronized (map) {
            return map.size();
        }
    }

    /** Inserts at the rate, one transaction every 10 ms; returns the rows written. */
    private static long write(String jdbc, String schema, int rate, int seconds) throws Exception {
        int perBatch = Math.max(1, rate / 100);
        long id = 0;
        try (Connection connection =
                        DriverManager.getConnection(
                                jdbc,
                                System.getenv().getOrDefault("MT_PG_USER", "mt"),
                                System.getenv().getOrDefault("MT_PG_PASSWORD", "mt"));
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO " + schema + ".events VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            long start = System.nanoTime();
            long batches = seconds * 100L;
            for (long b = 0; b < batches; b++) {
                for (int i = 0; i < perBatch; i++) {
                    insert.setLong(1, ++id);
                    insert.setString(2, "payload " + id);
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
                long due = start + (b + 1) * 10_000_000L;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
        }
        return id;
    }

    /** Each new snapshot's rows become readable at its commit time. */
    private static void watchSnapshots(
            FileStoreTable table,
            Map<Long, Long> readableAt,
            Map<Long, Long> committedAt,
            AtomicBoolean running) {
        Long last = table.snapshotManager().latestSnapshotId();
        while (running.get()) {
            Long latest = table.snapshotManager().latestSnapshotId();
            if (latest != null && (last == null || latest > last)) {
                long from = last == null ? 0 : last;
                for (long id = from + 1; id <= latest; id++) {
                    var snapshot = table.snapshotManager().snapshot(id);
                    if (snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
                        continue;
                    }
                    long committed = snapshot.timeMillis();
                    committedAt.putIfAbsent(
                            snapshot.commitIdentifier(),
                            committed); // a streaming write commits under its checkpoint's id
                    FileStoreTable delta =
                            table.copy(
                                    Map.of(
                                            CoreOptions.INCREMENTAL_BETWEEN.key(),
                                            (id - 1) + "," + id));
                    ReadBuilder read = delta.newReadBuilder();
                    try (RecordReader<InternalRow> reader =
                            read.newRead().createReader(read.newScan().plan())) {
                        reader.forEachRemaining(
                                row -> {
                                    synchronized (readableAt) {
                                        readableAt.putIfAbsent(row.getLong(0), committed);
                                    }
                                });
                    } catch (Exception e) {
                        throw new IllegalStateException("reading snapshot " + id, e);
                    }
                }
                last = latest;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Per id: the PostgreSQL commit time (source.ts_ms) and the Kafka send time of its insert
     * event.
     */
    private static Map<Long, long[]> changeEvents(String bootstrap, String topic) throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Map<Long, long[]> times = new HashMap<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(p -> new TopicPartition(topic, p.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value() == null) {
                        continue;
                    }
                    JsonNode event = JSON.readTree(record.value());
                    if (event.path("op").asText().equals("c")) {
                        // The record's time is the commit time (cdc-capture-service sets it so);
                        // its send time is a header.
                        var sentAt = record.headers().lastHeader("mt-published-at");
                        long sent =
                                sentAt == null
                                        ? record.timestamp()
                                        : Long.parseLong(
                                                new String(sentAt.value(), StandardCharsets.UTF_8));
                        times.putIfAbsent(
                                event.path("after").path("id").asLong(),
                                new long[] {event.path("source").path("ts_ms").asLong(), sent});
                    }
                }
            }
        }
        return times;
    }
}
