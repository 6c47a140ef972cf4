package io.mtables.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The control plane: how long a statement takes to be acknowledged by ddl-service, and how long
 * from {@code CREATE MATERIALIZED TABLE} over REST to its streaming job RUNNING on Flink, through
 * ddl-service, the definitions topic, planner-service, the plans topic and job-manager-service.
 * Baselines, in the same run: the same INSERT job submitted straight to the same cluster by Flink's
 * own client from a warm JVM, to RUNNING; and, when its URL is given, the same {@code CREATE
 * MATERIALIZED TABLE} through Flink's SQL gateway (Flink's own materialized tables) to its job
 * RUNNING, the gateway's first table shown apart (its JVM cold, as ours after start). Each table of
 * either system is dropped or cancelled once RUNNING, so every CREATE meets an idle cluster.
 *
 * <p>Arguments: ddl-service URL, Flink REST port, warehouse path, statements to time, tables to
 * create, bootstrap servers, and optionally Flink's SQL gateway URL, then planner-service's and
 * job-manager-service's URLs: the tables after the first wait for the services' warm-ups to end.
 */
public final class ControlPlaneBench {

    /** A pause after each table is gone, so the work its end left (a drop, a GC) is not timed. */
    private static final long QUIET_MILLIS = 1000;

    public static void main(String[] args) throws Exception {
        String ddl = args[0];
        int flinkPort = Integer.parseInt(args[1]);
        String warehouse = args[2];
        int statements = Integer.parseInt(args[3]);
        int tables = Integer.parseInt(args[4]);
        MachineFacts.print("control plane: DDL acknowledgement and CREATE to RUNNING");

        // Acknowledgement: ddl-service answers once the definition is on its topic.
        Statements.post(
                ddl, "CREATE TABLE bench.warmup (id BIGINT) WITH ('connector' = 'datagen')");
        List<Long> acks = new ArrayList<>();
        for (int i = 0; i < statements; i++) {
            long start = System.nanoTime();
            Statements.post(
                    ddl,
                    "CREATE TABLE bench.source_"
                            + i
                            + " (id BIGINT, category STRING) WITH ('connector' = 'datagen',"
                            + " 'rows-per-second' = '10', 'fields.category.length' = '1')");
            acks.add((System.nanoTime() - start) / 1_000_000);
        }

        // The same statements as an account that is no admin: every privilege check runs.
        List<Long> userAcks = AccessCost.acknowledgementsAsAUser(ddl, statements);
        String accessTimers = AccessCost.timers(ddl);

        // Through all the services: CREATE over REST to the job RUNNING.
        List<Long> ours = new ArrayList<>();
        Map<String, long[]> wallClock =
                new LinkedHashMap<>(); // table -> {POST sent, RUNNING seen}, epoch ms
        for (int i = 0; i < tables; i++) {
            String name = "mt_" + i;
            if (i == 1 && args.length > 8) {
                // The first table comes right after the services' start, warm-ups or not; the
                // others once every service's warm-up (docs/operations.md, mt.warm-up) is done.
                Duration waited =
                        ServiceWarmUps.await(
                                ServiceWarmUps.of(ddl, args[7], args[8]), Duration.ofMinutes(3));
                System.out.println(
                        "waited "
                                + waited.toMillis()
                                + " ms after the first table for the services' warm-ups to end");
            }
            long sentAt = System.currentTimeMillis();
            long start = System.nanoTime();
            Statements.post(
                    ddl,
                    "CREATE MATERIALIZED TABLE bench."
                            + name
                            + " FRESHNESS = INTERVAL '1' SECOND AS SELECT category, COUNT(*) AS n"
                            + " FROM bench.source_"
                            + i
                            + " GROUP BY category");
            FlinkJobs.awaitRunning(flinkPort, "mt:default_catalog.bench." + name + ":");
            ours.add((System.nanoTime() - start) / 1_000_000);
            wallClock.put(
                    "default_catalog.bench." + name,
                    new long[] {sentAt, System.currentTimeMillis()});
            // Dropped before the next, as Flink's own are cancelled below: each CREATE of either
            // system meets an idle cluster, not the jobs of the tables before it.
            Statements.post(ddl, "DROP MATERIALIZED TABLE bench." + name);
            FlinkJobs.awaitNoneRunning(flinkPort);
            Thread.sleep(QUIET_MILLIS);
        }

        // Baseline: the same job straight to Flink from this (warm) JVM.
        List<Long> direct = new ArrayList<>();
        for (int i = 0; i <= tables; i++) {
            String name = "direct_" + i;
            long start = System.nanoTime();
            var job = submitDirectly(flinkPort, warehouse, name);
            FlinkJobs.awaitRunning(flinkPort, name);
            long took = (System.nanoTime() - start) / 1_000_000;
            job.getJobClient().orElseThrow().cancel().get(); // its slot is free for the next one
            FlinkJobs.awaitNoneRunning(flinkPort);
            Thread.sleep(QUIET_MILLIS);
            if (i > 0) {
                direct.add(took); // the first one warms the client up (class loading, planner)
            }
        }

        // Flink's own materialized tables: the same statement through Flink's SQL gateway.
        List<Long> flinkOwn = new ArrayList<>();
        long flinkOwnFirst = -1;
        if (args.length > 6) {
            FlinkSqlGateway gateway =
                    FlinkSqlGateway.open(
                            args[6],
                            FlinkOwnSettings.of(
                                    Map.of(
                                            "parallelism.default",
                                            "1",
                                            "table.exec.sink.upsert-materialize",
                                            "NONE")));
            gateway.execute(
                    "CREATE CATALOG bench_paimon WITH ('type' = 'paimon', 'warehouse' = '"
                            + warehouse
                            + "')");
            gateway.execute("USE CATALOG bench_paimon");
            gateway.execute("CREATE DATABASE IF NOT EXISTS bench_flink");
            for (int i = 0; i <= tables; i++) {
                String name = "mt_" + i;
                gateway.execute(
                        "CREATE TEMPORARY TABLE source_"
                                + i
                                // NOT NULL: Flink keys its table by category and asks for it.
                                + " (id BIGINT, category STRING NOT NULL) WITH ('connector' ="
                                + " 'datagen',"
                                + " 'rows-per-second' = '10', 'fields.category.length' = '1')");
                long start = System.nanoTime();
                gateway.execute(
                        "CREATE MATERIALIZED TABLE bench_flink."
                                + name
                                + " (PRIMARY KEY (category) NOT ENFORCED) FRESHNESS = INTERVAL '1'"
                                + " SECOND AS SELECT category, COUNT(*) AS n FROM source_"
                                + i
                                + " GROUP BY category");
                var job =
                        FlinkJobs.awaitRunning(
                                flinkPort,
                                "Materialized_table_`bench_paimon`.`bench_flink`.`" + name + "`");
                long took = (System.nanoTime() - start) / 1_000_000;
                FlinkJobs.cancel(flinkPort, job.path("jid").asText()); // its slot for the next
                Thread.sleep(QUIET_MILLIS);
                if (i == 0) {
                    flinkOwnFirst = took;
                } else {
                    flinkOwn.add(took);
                }
            }
        }

        System.out.println();
        System.out.println(
                "DDL acknowledgement ("
                        + statements
                        + " CREATE TABLE over REST): "
                        + summary(acks));
        System.out.println(
                "the same as a service account that is no admin, with CREATE on the schema by a"
                        + " grant: "
                        + summary(userAcks));
        System.out.println(
                "what identity and privileges took of each, by ddl-service's own timers"
                        + " (mt_access_seconds; goal: at most 5 ms of a statement's p99): "
                        + accessTimers);
        System.out.println(
                "CREATE MATERIALIZED TABLE to job RUNNING, through the services ("
                        + tables
                        + " tables): "
                        + summary(ours)
                        + "  each: "
                        + ours);
        System.out.println(
                "baseline: the same INSERT straight to Flink from a warm client ("
                        + direct.size()
                        + " jobs): "
                        + summary(direct)
                        + "  each: "
                        + direct);
        System.out.printf(
                "ratio of p50 (services / baseline): %.2f%n",
                (double) percentile(ours, 50) / percentile(direct, 50));
        if (!flinkOwn.isEmpty()) {
            System.out.println(
                    "Flink's own materialized tables, CREATE through its SQL gateway to job"
                            + " RUNNING ("
                            + flinkOwn.size()
                            + " tables after a first of "
                            + flinkOwnFirst
                            + " ms): "
                            + summary(flinkOwn)
                            + "  each: "
                            + flinkOwn);
            System.out.printf(
                    "ratio of p50 (services / Flink's own): %.2f (goal <= 1.0); our first table"
                            + " %d ms against Flink's own first %d ms%n",
                    (double) percentile(ours, 50) / percentile(flinkOwn, 50),
                    ours.get(0),
                    flinkOwnFirst);
        } else {
            System.out.println(
                    "Flink's own materialized tables: not run here (no SQL gateway given)");
        }
        Map<String, List<Long>> toRunning = new LinkedHashMap<>();
        toRunning.put("ours, through the services", ours);
        toRunning.put("the same INSERT straight to Flink", direct);
        if (!flinkOwn.isEmpty()) {
            toRunning.put("Flink's own materialized tables", flinkOwn);
        }
        Charts.distribution(
                "control-plane-create-to-running", "CREATE to job RUNNING", "ms", toRunning);
        Charts.distribution(
                "control-plane-ddl-ack",
                "DDL acknowledgement (CREATE TABLE over REST)",
                "ms",
                Map.of("as an admin", acks, "as a user with a grant", userAcks));
        stages(args.length > 5 ? args[5] : "127.0.0.1:29092", wallClock);
    }

    /**
     * Where the time of each CREATE went, from the broker's timestamps of the records each step
     * wrote: the definition (ddl-service), the plan (planner-service), JobStarted
     * (job-manager-service, once Flink accepted the job), then RUNNING as seen on Flink's REST API.
     */
    private static void stages(String bootstrap, Map<String, long[]> wallClock) {
        Map<String, Long> defined =
                firstRecordTimes(bootstrap, "mt.table.definitions", wallClock.keySet(), null);
        Map<String, Long> planned =
                firstRecordTimes(bootstrap, "mt.refresh.plans", wallClock.keySet(), null);
        Map<String, Long> started =
                firstRecordTimes(bootstrap, "mt.refresh.events", wallClock.keySet(), "\"jobName\"");
        System.out.println(
                "stages, ms (REST to definition written | definition to plan | plan to job"
                        + " submitted | submitted to RUNNING):");
        wallClock.forEach(
                (table, times) ->
                        System.out.printf(
                                "  %s: %d | %d | %d | %d%n",
                                table,
                                defined.get(table) - times[0],
                                planned.get(table) - defined.get(table),
                                started.get(table) - planned.get(table),
                                times[1] - started.get(table)));
    }

    private static Map<String, Long> firstRecordTimes(
            String bootstrap, String topic, Set<String> keys, String mustContain) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        Map<String, Long> times = new HashMap<>();
        try (var consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            var partitions =
                    consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(p -> new TopicPartition(topic, p.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (keys.contains(record.key())
                            && record.value() != null
                            && (mustContain == null || record.value().contains(mustContain))) {
                        times.putIfAbsent(record.key(), record.timestamp());
                    }
                }
            }
        }
        return times;
    }

    private static TableResult submitDirectly(int flinkPort, String warehouse, String name) {
        Configuration configuration = new Configuration();
        configuration.set(DeploymentOptions.TARGET, "remote");
        configuration.set(RestOptions.ADDRESS, "127.0.0.1");
        configuration.set(RestOptions.PORT, flinkPort);
        configuration.setString("pipeline.name", name);
        configuration.setString("execution.checkpointing.interval", "1 s");
        configuration.setString("parallelism.default", "1"); // as the job manager runs its jobs
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .withConfiguration(configuration)
                                .inStreamingMode()
                                .build());
        env.executeSql(
                "CREATE CATALOG wh WITH ('type' = 'paimon', 'warehouse' = '" + warehouse + "')");
        env.executeSql("CREATE DATABASE IF NOT EXISTS wh.bench_direct");
        env.executeSql(
                "CREATE TABLE wh.bench_direct."
                        + name
                        + " (category STRING NOT NULL, n BIGINT, PRIMARY KEY (category) NOT"
                        + " ENFORCED) WITH ('changelog-producer' = 'input')");
        env.executeSql(
                "CREATE TEMPORARY TABLE src (id BIGINT, category STRING) WITH ('connector' ="
                        + " 'datagen', 'rows-per-second' = '10', 'fields.category.length' = '1')");
        return env.executeSql(
                "INSERT INTO wh.bench_direct."
                        + name
                        + " SELECT category, COUNT(*) AS n FROM src GROUP BY category");
    }

    private static String summary(List<Long> millis) {
        return String.format(
                "p50 %d ms, p99 %d ms, max %d ms",
                percentile(millis, 50), percentile(millis, 99), Collections.max(millis));
    }

    private static long percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }
}
