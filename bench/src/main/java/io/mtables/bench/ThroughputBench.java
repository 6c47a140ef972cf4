package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.paimon.table.FileStoreTable;

/**
 * Throughput: seed 003's users x domains join caught up on Kafka topics pre-filled with Debezium
 * events, three ways in one run on the same broker and Flink cluster:
 *
 * <ol>
 *   <li>the ceiling: one thread consuming both topics with a plain Kafka consumer;
 *   <li>ours: {@code CREATE MATERIALIZED TABLE} over REST, run by the services as a CONTINUOUS job;
 *   <li>the baseline: the same join written by hand as a DataStream job ({@link HandWrittenJoin}),
 *       with our job's checkpoint interval and pause, parallelism and state backend, into a Paimon
 *       table of the same schema and options;
 *   <li>the rival: Flink's own materialized table, the same {@code CREATE MATERIALIZED TABLE}
 *       through Flink's SQL gateway (the sources temporary tables of its session, as Flink asks),
 *       with our job's parallelism and state backend and our table's Paimon options (and what
 *       Paimon requires of a Flink session: no upsert materializer), when the gateway's URL is
 *       given. Both read the topics {@code read_committed}, as sources over cdc-capture-service's
 *       exactly-once topics are declared, so neither drops repeated events;
 *   <li>rounds (five by default) of Flink's own and ours once more, on the cluster as warm as it
 *       was for the jobs before, who goes first alternating; the goal's ratio is that of the
 *       medians, as one run of each moves by 15 % on a small machine.
 * </ol>
 *
 * A job's time runs from its start on Flink to the commit of the first Paimon snapshot holding the
 * marker row (the last event of both topics); its table is then compared with the expected join.
 *
 * <p>Arguments: ddl-service URL, bootstrap servers, Flink REST port, warehouse, events, freshness
 * seconds, the bench jar (shipped with the hand-written job), and optionally Flink's SQL gateway
 * URL (empty for none) and the rounds.
 */
public final class ThroughputBench {

    private static final String SCHEMA = "bench_join";

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        String bootstrap = args[1];
        int flinkPort = Integer.parseInt(args[2]);
        String warehousePath = args[3];
        long events = Long.parseLong(args[4]);
        int freshnessSeconds = Integer.parseInt(args[5]);
        String benchJar = args[6];
        String gatewayUrl = args.length > 7 && !args[7].isEmpty() ? args[7] : null;
        int rounds = args.length > 8 ? Integer.parseInt(args[8]) : 5;
        MachineFacts.print(
                "throughput: users x domains join caught up on "
                        + String.format("%,d", events)
                        + " Debezium events");
        Warehouse warehouse = new Warehouse(warehousePath);

        long writeStart = System.nanoTime();
        JoinChanges.Written written = new JoinChanges(SCHEMA, 3).write(bootstrap, events);
        System.out.printf(
                "pre-filled: %,d user events, %,d domain events (%,d records with tombstones) in"
                        + " %.1f s; expected join: %s%n",
                written.userEvents(),
                written.domainEvents(),
                written.records(),
                seconds(System.nanoTime() - writeStart),
                written.expected());

        double rawRate =
                RawConsume.rate(
                        bootstrap,
                        List.of(JoinChanges.usersTopic(SCHEMA), JoinChanges.domainsTopic(SCHEMA)),
                        written.events());

        // Ours: through the REST front door, the planner and the job manager.
        Statements.post(
                ddl,
                source(
                        "users",
                        "id BIGINT NOT NULL, firstname STRING, lastname STRING",
                        JoinChanges.usersTopic(SCHEMA),
                        bootstrap));
        Statements.post(
                ddl,
                source(
                        "domains",
                        "id BIGINT NOT NULL, user_id BIGINT, domain_name STRING",
                        JoinChanges.domainsTopic(SCHEMA),
                        bootstrap));
        long createdAt = System.currentTimeMillis();
        Statements.post(
                ddl,
                "CREATE MATERIALIZED TABLE "
                        + SCHEMA
                        + ".user_domains FRESHNESS = INTERVAL '"
                        + freshnessSeconds
                        + "' SECOND AS "
                        + QUERY);
        JsonNode ourJob =
                FlinkJobs.awaitRunning(
                        flinkPort, "mt:default_catalog." + SCHEMA + ".user_domains:");
        FileStoreTable ours = warehouse.awaitTable(SCHEMA, "user_domains", Duration.ofMinutes(2));
        CaughtUp.Result oursResult =
                CaughtUp.await(
                        "ours (CONTINUOUS materialized table)", ours, ourJob, written, flinkPort);
        System.out.printf(
                "  from the CREATE statement: %.1f s%n",
                (oursResult.caughtUpAt() - createdAt) / 1000.0);
        String jobId = ourJob.path("jid").asText();
        JsonNode checkpoints = FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/checkpoints/config");
        long checkpointMillis = checkpoints.path("interval").asLong();
        long minPauseMillis = checkpoints.path("min_pause").asLong();
        int parallelism =
                FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/config")
                        .path("execution-config")
                        .path("job-parallelism")
                        .asInt(1);
        String stateBackend =
                checkpoints.path("state_backend").asText().contains("RocksDB")
                        ? "rocksdb"
                        : "hashmap";
        Statements.post(ddl, "ALTER MATERIALIZED TABLE " + SCHEMA + ".user_domains SUSPEND");
        FlinkJobs.awaitNoneRunning(flinkPort);

        // The baseline: the hand-written DataStream job, alone on the same cluster.
        FileStoreTable byHand = warehouse.createLike(ours, SCHEMA, "user_domains_by_hand");
        System.out.printf(
                "hand-written job: checkpoint every %d ms (at least %d ms apart), parallelism %d,"
                        + " state backend %s (as ours)%n",
                checkpointMillis, minPauseMillis, parallelism, stateBackend);
        JobClient client =
                HandWrittenJoin.submit(
                        "127.0.0.1",
                        flinkPort,
                        benchJar,
                        bootstrap,
                        JoinChanges.usersTopic(SCHEMA),
                        JoinChanges.domainsTopic(SCHEMA),
                        byHand,
                        checkpointMillis,
                        minPauseMillis,
                        parallelism,
                        stateBackend);
        JsonNode handJob = FlinkJobs.get(flinkPort, "/jobs/" + client.getJobID());
        CaughtUp.Result handResult =
                CaughtUp.await("hand-written DataStream job", byHand, handJob, written, flinkPort);
        client.cancel().get();
        FlinkJobs.awaitNoneRunning(flinkPort);

        // Then rounds of the two that the goal compares, both on the cluster as warm as for the
        // jobs before, who goes first alternating: one run of each moves by 15 % on this machine.
        List<CaughtUp.Result> flinkResults = new ArrayList<>();
        List<CaughtUp.Result> oursWarm = new ArrayList<>();
        Round flinkOwn =
                round ->
                        flinkOwn(
                                gatewayUrl,
                                flinkPort,
                                warehousePath,
                                bootstrap,
                                freshnessSeconds,
                                parallelism,
                                stateBackend,
                                ours,
                                warehouse,
                                written,
                                round);
        for (int round = 1; round <= rounds; round++) {
            boolean withFlinkOwn = gatewayUrl != null;
            boolean flinkFirst = round % 2 == 1;
            if (withFlinkOwn && flinkFirst) {
                flinkResults.add(flinkOwn.run(round));
            }
            oursWarm.add(oursWarm(ddl, flinkPort, warehouse, written, freshnessSeconds, round));
            if (withFlinkOwn && !flinkFirst) {
                flinkResults.add(flinkOwn.run(round));
            }
        }
        double oursWarmRate = CaughtUp.median(oursWarm);

        System.out.println();
        System.out.printf("raw single-thread consume:    %,10.0f events/s%n", rawRate);
        System.out.printf(
                "ours, the first job (the cluster cold): %,10.0f events/s  (table %s)%n",
                oursResult.rate(), oursResult.verdict());
        System.out.printf(
                "hand-written DataStream job:            %,10.0f events/s  (table %s)%n",
                handResult.rate(), handResult.verdict());
        System.out.printf(
                "ours (the cluster warm), median of %d:  %,10.0f events/s  (goal >= 100,000;"
                        + " rounds %s)%n",
                oursWarm.size(), oursWarmRate, CaughtUp.rates(oursWarm));
        System.out.printf(
                "ratio ours (warm) / hand-written: %.2f (goal >= 0.9); ours cold / warm: %.2f;"
                        + " ours (warm) / raw consume: %.3f; hand-written / raw consume: %.3f%n",
                oursWarmRate / handResult.rate(),
                oursResult.rate() / oursWarmRate,
                oursWarmRate / rawRate,
                handResult.rate() / rawRate);
        if (!flinkResults.isEmpty()) {
            double flinkRate = CaughtUp.median(flinkResults);
            System.out.printf(
                    "Flink's own materialized table, median of %d: %,10.0f events/s  (rounds %s)%n",
                    flinkResults.size(), flinkRate, CaughtUp.rates(flinkResults));
            double lowest = Double.MAX_VALUE;
            double highest = 0;
            for (int i = 0; i < oursWarm.size(); i++) {
                double ratio = oursWarm.get(i).rate() / flinkResults.get(i).rate();
                lowest = Math.min(lowest, ratio);
                highest = Math.max(highest, ratio);
            }
            System.out.printf(
                    "ratio ours (warm) / Flink's own, of the medians: %.2f (goal >= 1.0); per"
                            + " round %.2f to %.2f; Flink's own / hand-written: %.2f%n",
                    oursWarmRate / flinkRate, lowest, highest, flinkRate / handResult.rate());
        } else {
            System.out.println(
                    "Flink's own materialized table: not run here (no SQL gateway given)");
        }
        Map<String, List<Double>> perRound = new LinkedHashMap<>();
        perRound.put(
                "ours (the cluster warm)", oursWarm.stream().map(CaughtUp.Result::rate).toList());
        if (!flinkResults.isEmpty()) {
            perRound.put(
                    "Flink's own materialized table",
                    flinkResults.stream().map(CaughtUp.Result::rate).toList());
        }
        Charts.rounds(
                "throughput-rounds",
                String.format(
                        Locale.ROOT,
                        "Events/s to a caught-up table, %,d Debezium events a round",
                        events),
                "events/s",
                perRound);
        List<CaughtUp.Result> all = new ArrayList<>(List.of(oursResult, handResult));
        all.addAll(oursWarm);
        all.addAll(flinkResults);
        if (!all.stream().allMatch(CaughtUp.Result::same)) {
            System.out.println(
                    "A TABLE DIFFERS FROM THE EXPECTED JOIN: the figures above do not count.");
            System.exit(1);
        }
    }

    /** One round's run of a job caught up. */
    private interface Round {
        CaughtUp.Result run(int round) throws Exception;
    }

    /** Ours once more, its table {@code user_domains_again_<round>}, on the warm cluster. */
    private static CaughtUp.Result oursWarm(
            String ddl,
            int flinkPort,
            Warehouse warehouse,
            JoinChanges.Written written,
            int freshnessSeconds,
            int round)
            throws Exception {
        String table = "user_domains_again_" + round;
        Statements.post(
                ddl,
                "CREATE MATERIALIZED TABLE "
                        + SCHEMA
                        + "."
                        + table
                        + " FRESHNESS = INTERVAL '"
                        + freshnessSeconds
                        + "' SECOND AS "
                        + QUERY);
        JsonNode job =
                FlinkJobs.awaitRunning(
                        flinkPort, "mt:default_catalog." + SCHEMA + "." + table + ":");
        CaughtUp.Result result =
                CaughtUp.await(
                        "ours again, round " + round + " (the cluster warm)",
                        warehouse.awaitTable(SCHEMA, table, Duration.ofMinutes(2)),
                        job,
                        written,
                        flinkPort);
        Statements.post(ddl, "ALTER MATERIALIZED TABLE " + SCHEMA + "." + table + " SUSPEND");
        FlinkJobs.awaitNoneRunning(flinkPort);
        return result;
    }

    private static final String QUERY =
            "SELECT d.id AS domain_id, u.id AS user_id, u.firstname, u.lastname, d.domain_name"
                    + " FROM "
                    + SCHEMA
                    + ".users AS u JOIN "
                    + SCHEMA
                    + ".domains AS d ON d.user_id = u.id";

    /**
     * Flink's own materialized table of the same query over the same topics, its Paimon table in
     * the same warehouse with our table's options and key, caught up and compared like ours.
     */
    private static CaughtUp.Result flinkOwn(
            String gatewayUrl,
            int flinkPort,
            String warehousePath,
            String bootstrap,
            int freshnessSeconds,
            int parallelism,
            String stateBackend,
            FileStoreTable ours,
            Warehouse warehouse,
            JoinChanges.Written written,
            int round)
            throws Exception {
        String name = "user_domains_flink_" + round;
        Map<String, String> settings = new TreeMap<>();
        settings.put("parallelism.default", String.valueOf(parallelism));
        settings.put("state.backend.type", stateBackend);
        // Paimon refuses Flink's upsert materializer, and says so.
        settings.put("table.exec.sink.upsert-materialize", "NONE");
        FlinkSqlGateway gateway = FlinkSqlGateway.open(gatewayUrl, FlinkOwnSettings.of(settings));
        gateway.execute(
                "CREATE CATALOG IF NOT EXISTS bench_paimon WITH ('type' = 'paimon', 'warehouse' = '"
                        + warehousePath
                        + "')");
        gateway.execute("USE CATALOG bench_paimon");
        gateway.execute(
                "CREATE TEMPORARY "
                        + source(
                                        "users",
                                        "id BIGINT NOT NULL, firstname STRING, lastname STRING",
                                        JoinChanges.usersTopic(SCHEMA),
                                        bootstrap)
                                .substring("CREATE ".length()));
        gateway.execute(
                "CREATE TEMPORARY "
                        + source(
                                        "domains",
                                        "id BIGINT NOT NULL, user_id BIGINT, domain_name STRING",
                                        JoinChanges.domainsTopic(SCHEMA),
                                        bootstrap)
                                .substring("CREATE ".length()));
        Map<String, String> options = new TreeMap<>(ours.options());
        options.remove("path");
        options.keySet().removeIf(key -> key.startsWith("mt.")); // our own marks, not Paimon's
        String with =
                options.entrySet().stream()
                        .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                        .collect(Collectors.joining(", "));
        System.out.printf(
                "Flink's own materialized table: session settings %s, Paimon options %s (as"
                        + " ours)%n",
                settings, options);
        long createdAt = System.currentTimeMillis();
        gateway.execute(
                "CREATE MATERIALIZED TABLE "
                        + SCHEMA
                        + "."
                        + name
                        + " (PRIMARY KEY ("
                        + String.join(", ", ours.primaryKeys())
                        + ") NOT ENFORCED) WITH ("
                        + with
                        + ") FRESHNESS = INTERVAL '"
                        + freshnessSeconds
                        + "' SECOND AS "
                        + QUERY);
        JsonNode job = FlinkJobs.awaitRunning(flinkPort, "Materialized_table_");
        FileStoreTable table = warehouse.awaitTable(SCHEMA, name, Duration.ofMinutes(2));
        CaughtUp.Result result =
                CaughtUp.await(
                        "Flink's own materialized table, round " + round,
                        table,
                        job,
                        written,
                        flinkPort);
        System.out.printf(
                "  from the CREATE statement: %.1f s%n",
                (result.caughtUpAt() - createdAt) / 1000.0);
        FlinkJobs.cancel(flinkPort, job.path("jid").asText());
        FlinkJobs.awaitNoneRunning(flinkPort);
        return result;
    }

    /** A CDC source table over a pre-filled topic, as a user declares it. */
    private static String source(String table, String columns, String topic, String bootstrap) {
        return "CREATE TABLE "
                + SCHEMA
                + "."
                + table
                + " ("
                + columns
                + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = '"
                + topic
                + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                + bootstrap
                + "', 'properties.isolation.level' ="
                + " 'read_committed', 'scan.startup.mode' = 'earliest-offset')";
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
