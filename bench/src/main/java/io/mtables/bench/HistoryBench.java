package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.RefreshSucceeded;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The refresh history at scale: {@code tables} FULL tables refreshed every minute for {@code
 * minutes} minutes (their RefreshSucceeded events written to mt.refresh.events as fast as the
 * broker takes them), recorded by ddl-service into its Paimon table. Prints how fast it was
 * recorded, its size on disk, and the time of one table's last 100 refreshes through the front door
 * against a baseline in the same run: the same query shape over information_schema's in-memory
 * materialized_tables. The first queries (the service cold) are shown apart from the ones after
 * them.
 */
public final class HistoryBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * Queries of each shape while the service warms up (Calcite's prepared shapes, the JIT), shown
     * apart.
     */
    private static final int FIRST_QUERIES = 50;

    private static final int QUERIES = 200;

    private HistoryBench() {}

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        String bootstrap = args[1];
        Path warehouse = Path.of(args[2]);
        int tables = Integer.parseInt(args[3]);
        int minutes = Integer.parseInt(args[4]);
        int maxPerTable = Integer.parseInt(args[5]);
        MachineFacts.print("history");

        Instant start = Instant.now();
        long events = produce(bootstrap, tables, minutes);
        Duration produced = Duration.between(start, Instant.now());
        long expected = (long) tables * Math.min(minutes, maxPerTable);
        long recorded = 0;
        while (recorded < expected) {
            Thread.sleep(2000);
            recorded =
                    ((Number)
                                    query(
                                                    ddl,
                                                    "SELECT count(*) AS n FROM"
                                                            + " information_schema.refresh_history"
                                                            + " WHERE state = 'SUCCEEDED'")
                                            .get(0)
                                            .get(0))
                            .longValue();
            System.out.printf(
                    "  recorded %,d of %,d rows after %d s%n",
                    recorded, expected, Duration.between(start, Instant.now()).toSeconds());
        }
        Duration recordedIn = Duration.between(start, Instant.now());

        Random random = new Random(7);
        List<Long> firstHistory = new ArrayList<>();
        List<Long> firstBaseline = new ArrayList<>();
        List<Long> history = new ArrayList<>();
        List<Long> baseline = new ArrayList<>();
        for (int i = 0; i < FIRST_QUERIES + QUERIES; i++) {
            boolean warm = i >= FIRST_QUERIES;
            String table = table(random.nextInt(tables));
            long t0 = System.nanoTime();
            List<List<Object>> rows =
                    query(
                            ddl,
                            "SELECT finished_at, state, rows_written FROM"
                                    + " information_schema.refresh_history WHERE table_name = '"
                                    + table
                                    + "' ORDER BY finished_at DESC LIMIT 100");
            (warm ? history : firstHistory).add((System.nanoTime() - t0) / 1_000_000);
            if (rows.size() != Math.min(minutes, Math.min(100, maxPerTable))) {
                throw new IllegalStateException(table + ": " + rows.size() + " rows");
            }
            t0 = System.nanoTime();
            query(
                    ddl,
                    "SELECT status, last_refresh FROM information_schema.materialized_tables WHERE"
                            + " table_name = '"
                            + table
                            + "' ORDER BY last_refresh DESC LIMIT 100");
            (warm ? baseline : firstBaseline).add((System.nanoTime() - t0) / 1_000_000);
        }
        long bytes;
        try (Stream<Path> files = Files.walk(warehouse.resolve("mt_system.db/refresh_history"))) {
            bytes =
                    files.filter(Files::isRegularFile)
                            .mapToLong(path -> path.toFile().length())
                            .sum();
        }
        System.out.printf(
                "history: %,d tables x %d refreshes (one a minute) = %,d events, written in %d s;"
                        + " recorded in %d s (%,.0f events/s)%n",
                tables,
                minutes,
                events,
                produced.toSeconds(),
                recordedIn.toSeconds(),
                events * 1000.0 / recordedIn.toMillis());
        System.out.printf(
                "on disk: %,d bytes, %,.0f bytes per row (bound: %d rows per table)%n",
                bytes, bytes / (double) expected, maxPerTable);
        System.out.printf(
                "one table's last 100 refreshes, through the front door, first %d queries (the"
                        + " service cold): %s; baseline (in-memory materialized_tables): %s%n",
                FIRST_QUERIES, summary(firstHistory), summary(firstBaseline));
        System.out.printf(
                "one table's last 100 refreshes, through the front door, the next %d: %s; baseline"
                        + " (in-memory materialized_tables): %s; ratio p50 %.2f%n",
                QUERIES,
                summary(history),
                summary(baseline),
                percentile(history, 50) / (double) Math.max(1, percentile(baseline, 50)));
    }

    private static long produce(String bootstrap, int tables, int minutes) {
        Map<String, Object> config =
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024,
                        ProducerConfig.ACKS_CONFIG,
                        "all");
        ContractCodec codec = new ContractCodec();
        Instant base = Instant.parse("2026-12-01T00:00:00Z");
        long count = 0;
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            for (int minute = 0; minute < minutes; minute++) {
                Instant scheduled = base.plus(Duration.ofMinutes(minute));
                for (int t = 0; t < tables; t++) {
                    String table = table(t);
                    RefreshSucceeded event =
                            new RefreshSucceeded(
                                    table,
                                    1,
                                    RefreshPlan.Mode.FULL,
                                    Map.of(),
                                    minute + 1,
                                    1000,
                                    scheduled.plusSeconds(1),
                                    scheduled.plusSeconds(3),
                                    scheduled,
                                    "0e10ab6e545af315ea545a8e9d9fe95d",
                                    null,
                                    null,
                                    null,
                                    "SCHEDULED");
                    ProducerRecord<String, String> record =
                            new ProducerRecord<>(
                                    Topics.REFRESH_EVENTS,
                                    table,
                                    codec.encode(Contracts.REFRESH_SUCCEEDED_V1, event));
                    record.headers()
                            .add(
                                    EventHeaders.TYPE,
                                    Contracts.REFRESH_SUCCEEDED_V1
                                            .type()
                                            .getBytes(StandardCharsets.UTF_8));
                    producer.send(record);
                    count++;
                }
            }
            producer.flush();
        }
        return count;
    }

    private static String table(int i) {
        return "default_catalog.bench_history.t" + i;
    }

    private static List<List<Object>> query(String ddl, String statement) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(ddl + "/api/v1/statements"))
                                .header("content-type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                JSON.writeValueAsString(
                                                        Map.of("statement", statement))))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "HTTP " + response.statusCode() + " for " + statement + ": " + response.body());
        }
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : JSON.readTree(response.body()).path("rows")) {
            List<Object> values = new ArrayList<>();
            row.forEach(
                    value ->
                            values.add(
                                    value.isNumber()
                                            ? (Object) value.numberValue()
                                            : value.asText()));
            rows.add(values);
        }
        return rows;
    }

    private static String summary(List<Long> millis) {
        return String.format(
                "p50 %d ms, p99 %d ms, max %d ms",
                percentile(millis, 50), percentile(millis, 99), Collections.max(millis));
    }

    private static long percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
    }
}
