package io.mtables.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Reads through the two doors (issue 48): SELECTs of tables of each size through REST and through
 * PostgreSQL's wire protocol (pgJDBC with a fetch size), their time to the first row and rows per
 * second; point lookups through the wire against PostgreSQL's own over the same rows (the largest
 * table of at most 100,000 rows), as a ratio; and CREATEs timed idle and while SELECTs of the
 * largest table run beside them (reads are off the catalog's lock). The tables' rows are written
 * into the warehouse as a refresh would write them.
 *
 * <p>Each SELECT's figures include how far ddl-service's resident set grew over what it was just
 * before the read (sampled every {@value #SAMPLE_MILLIS} ms): a read that streams holds a batch,
 * not the table.
 *
 * <p>Arguments: ddl-service URL, wire port, warehouse path, sizes (comma-separated), lookups,
 * ddl-service's process id.
 */
public final class ReadsBench {

    private static final String SCHEMA = "reads_bench";
    private static final int REPEATS = 3;

    private static final int SAMPLE_MILLIS = 50;

    /** REST's page size: the rows of one response. */
    private static final int PAGE = 100_000;

    private static long ddlServicePid;

    private ReadsBench() {}

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        int wirePort = Integer.parseInt(args[1]);
        String warehouse = args[2];
        List<Integer> sizes =
                java.util.Arrays.stream(args[3].split(",")).map(Integer::parseInt).toList();
        int lookups = Integer.parseInt(args[4]);
        ddlServicePid = Long.parseLong(args[5]);

        Statements.post(
                ddl,
                "CREATE TABLE "
                        + SCHEMA
                        + ".src (id BIGINT, v STRING) WITH ('connector' = 'datagen')");
        for (int size : sizes) {
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE "
                            + table(size)
                            + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id, v FROM "
                            + SCHEMA
                            + ".src");
            write(warehouse, size);
        }
        try (Connection wire = wire(wirePort)) {
            System.out.println(
                    "\nSELECT * of a table, median of " + REPEATS + " (warm: one run first):");
            System.out.println(
                    String.format(
                            Locale.ROOT,
                            "  %10s  %-5s  %14s  %10s  %12s  %14s",
                            "rows",
                            "door",
                            "first row ms",
                            "total ms",
                            "rows/s",
                            "RSS growth MiB"));
            for (int size : sizes) {
                report(size, "REST", () -> rest(ddl, "SELECT * FROM " + table(size)));
                report(size, "wire", () -> wireSelect(wire, "SELECT * FROM " + table(size)));
            }
            int largest = Collections.max(sizes);
            // A lookup reads its table's whole snapshot (reads are for looking at a table): on the
            // largest table of at most 100,000 rows, so that the lookups end within minutes.
            lookups(
                    wire,
                    sizes.stream()
                            .filter(size -> size <= 100_000)
                            .max(Integer::compare)
                            .orElse(largest),
                    lookups);
            CreatesBesideReads.measure(ddl, wirePort, table(largest), largest);
        }
    }

    static String table(int size) {
        return SCHEMA + ".t_" + size;
    }

    /** The rows a refresh of {@code t_<size>} would have written: ids 0..size-1. */
    private static void write(String warehouse, int size) throws Exception {
        Options options = new Options();
        options.set("warehouse", warehouse);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.createDatabase(SCHEMA, true);
            Identifier id = Identifier.create(SCHEMA, "t_" + size);
            catalog.createTable(
                    id,
                    Schema.newBuilder()
                            .column("id", DataTypes.BIGINT().notNull())
                            .column("v", DataTypes.STRING())
                            .primaryKey("id")
                            .option("bucket", "1")
                            .build(),
                    false);
            BatchWriteBuilder builder = catalog.getTable(id).newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite();
                    BatchTableCommit commit = builder.newCommit()) {
                for (long i = 0; i < size; i++) {
                    write.write(GenericRow.of(i, BinaryString.fromString("value-" + i)));
                }
                commit.commit(write.prepareCommit());
            }
        }
    }

    /** One read's figures; {@code rssGrowthKib} is filled in by {@link #report}. */
    record Timing(long firstRowNanos, long totalNanos, long rows, long rssGrowthKib) {

        Timing(long firstRowNanos, long totalNanos, long rows) {
            this(firstRowNanos, totalNanos, rows, 0);
        }
    }

    private interface Read {
        Timing run() throws Exception;
    }

    private static void report(int size, String door, Read read) throws Exception {
        read.run(); // warm
        List<Timing> timings = new ArrayList<>();
        long mostGrowth = 0;
        for (int i = 0; i < REPEATS; i++) {
            Timing timing = sampled(read);
            mostGrowth = Math.max(mostGrowth, timing.rssGrowthKib());
            timings.add(timing);
        }
        timings.sort((a, b) -> Long.compare(a.totalNanos(), b.totalNanos()));
        Timing median = timings.get(timings.size() / 2);
        if (median.rows() != size) {
            throw new IllegalStateException(door + " read " + median.rows() + " rows of " + size);
        }
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "  %,10d  %-5s  %14.1f  %10.1f  %,12.0f  %14.1f",
                        size,
                        door,
                        median.firstRowNanos() / 1e6,
                        median.totalNanos() / 1e6,
                        size / (median.totalNanos() / 1e9),
                        mostGrowth / 1024.0));
    }

    /** {@code read}, with the most ddl-service's resident set grew during it. */
    private static Timing sampled(Read read) throws Exception {
        long before = residentKib();
        java.util.concurrent.atomic.AtomicLong most = new java.util.concurrent.atomic.AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler =
                new Thread(
                        () -> {
                            while (running.get()) {
                                most.accumulateAndGet(residentKib(), Math::max);
                                try {
                                    Thread.sleep(SAMPLE_MILLIS);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        });
        sampler.start();
        Timing timing;
        try {
            timing = read.run();
        } finally {
            running.set(false);
            sampler.join();
        }
        most.accumulateAndGet(residentKib(), Math::max);
        return new Timing(
                timing.firstRowNanos(),
                timing.totalNanos(),
                timing.rows(),
                Math.max(0, most.get() - before));
    }

    /** ddl-service's resident set now (VmRSS), in KiB. */
    private static long residentKib() {
        try {
            for (String line :
                    java.nio.file.Files.readAllLines(
                            java.nio.file.Path.of("/proc/" + ddlServicePid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS for process " + ddlServicePid);
    }

    /**
     * REST answers a JSON document per page of {@value #PAGE} rows, each next page asked with the
     * last one's token: the first row arrives with the first page.
     */
    private static Timing rest(String ddl, String select) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        HttpClient http = HttpClient.newHttpClient();
        long start = System.nanoTime();
        long first = -1;
        long rows = 0;
        String token = null;
        do {
            var body = json.createObjectNode().put("statement", select).put("pageSize", PAGE);
            if (token != null) {
                body.put("pageToken", token);
            }
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(ddl + "/api/v1/statements"))
                                    .header("content-type", "application/json")
                                    .header("authorization", "Bearer " + Statements.token())
                                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(response.statusCode() + ": " + response.body());
            }
            var page = json.readTree(response.body());
            rows += page.path("rows").size();
            if (first < 0) {
                first = System.nanoTime() - start;
            }
            token = page.hasNonNull("nextPageToken") ? page.get("nextPageToken").asText() : null;
        } while (token != null);
        return new Timing(first, System.nanoTime() - start, rows);
    }

    static Timing wireSelect(Connection wire, String select) throws Exception {
        long start = System.nanoTime();
        long first = -1;
        long rows = 0;
        try (Statement statement = wire.createStatement()) {
            statement.setFetchSize(1000);
            try (ResultSet result = statement.executeQuery(select)) {
                while (result.next()) {
                    if (first < 0) {
                        first = System.nanoTime() - start;
                    }
                    result.getLong(1);
                    rows++;
                }
            }
        }
        wire.commit();
        long total = System.nanoTime() - start;
        return new Timing(first < 0 ? total : first, total, rows);
    }

    /** Point lookups by key through the wire, and PostgreSQL's own over the same rows. */
    private static void lookups(Connection wire, int size, int count) throws Exception {
        List<Long> ours;
        try (PreparedStatement lookup =
                wire.prepareStatement("SELECT v FROM " + table(size) + " WHERE id = ?")) {
            ours = timeLookups(lookup, size, count);
        }
        wire.commit();
        List<Long> theirs;
        try (Connection postgres = postgres()) {
            try (Statement ddl = postgres.createStatement()) {
                ddl.execute("DROP TABLE IF EXISTS reads_bench");
                ddl.execute("CREATE TABLE reads_bench (id BIGINT PRIMARY KEY, v TEXT)");
                ddl.execute(
                        "INSERT INTO reads_bench SELECT i, 'value-' || i FROM generate_series(0, "
                                + (size - 1)
                                + ") AS i");
                ddl.execute("ANALYZE reads_bench");
            }
            try (PreparedStatement lookup =
                    postgres.prepareStatement("SELECT v FROM reads_bench WHERE id = ?")) {
                theirs = timeLookups(lookup, size, count);
            }
            try (Statement ddl = postgres.createStatement()) {
                ddl.execute("DROP TABLE reads_bench");
            }
        }
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "\nPoint lookups by key in %,d rows, %d each (after %d warm-up):%n"
                                + "  mtables (wire)  p50 %.2f ms, p99 %.2f ms%n"
                                + "  PostgreSQL      p50 %.2f ms, p99 %.2f ms%n"
                                + "  ratio           p50 %.1fx, p99 %.1fx",
                        size,
                        count,
                        count / 10,
                        ours.get(ours.size() / 2) / 1e6,
                        ours.get(ours.size() * 99 / 100) / 1e6,
                        theirs.get(theirs.size() / 2) / 1e6,
                        theirs.get(theirs.size() * 99 / 100) / 1e6,
                        (double) ours.get(ours.size() / 2) / theirs.get(theirs.size() / 2),
                        (double) ours.get(ours.size() * 99 / 100)
                                / theirs.get(theirs.size() * 99 / 100)));
    }

    private static List<Long> timeLookups(PreparedStatement lookup, int size, int count)
            throws Exception {
        List<Long> nanos = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = -count / 10; i < count; i++) {
            long key = random.nextInt(size);
            long start = System.nanoTime();
            lookup.setLong(1, key);
            try (ResultSet result = lookup.executeQuery()) {
                if (!result.next() || !result.getString(1).equals("value-" + key)) {
                    throw new IllegalStateException("key " + key + " not found");
                }
            }
            if (i >= 0) {
                nanos.add(System.nanoTime() - start);
            }
        }
        Collections.sort(nanos);
        return nanos;
    }

    static Connection wire(int port) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("user", "bench");
        properties.setProperty("password", Statements.token());
        Connection connection =
                DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + port + "/mtables", properties);
        connection.setAutoCommit(false); // pgJDBC reads by its fetch size only inside a block
        return connection;
    }

    private static Connection postgres() throws Exception {
        Properties credentials = new Properties();
        credentials.setProperty("user", System.getenv().getOrDefault("MT_PG_USER", "mt"));
        credentials.setProperty("password", System.getenv().getOrDefault("MT_PG_PASSWORD", "mt"));
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/"
                        + System.getenv().getOrDefault("MT_PG_DB", "mt"),
                credentials);
    }
}
