package io.mtables.bench;

import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Schedules N FULL tables at a 1-minute period on one running refresh-scheduler-service and
 * measures, for every SCHEDULED tick, how late it was written (the record's create time minus the
 * boundary it stands for), and the scheduler process's CPU use over the measured minutes.
 *
 * <p>Arguments: {@code <bootstrap servers> <scheduler pid> [tables=10000] [boundaries=3]}. Run by
 * {@code bin/bench scheduler}, which starts a broker and the scheduler of its own.
 */
public final class SchedulerBench {

    private SchedulerBench() {}

    public static void main(String[] args) throws Exception {
        String servers = args[0];
        long schedulerPid = Long.parseLong(args[1]);
        int tables = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int boundaries = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        String prefix =
                "default_catalog.bench_" + UUID.randomUUID().toString().substring(0, 6) + ".t";
        MachineFacts.print(
                "scheduler: "
                        + tables
                        + " FULL tables at FRESHNESS 1 MINUTE, "
                        + boundaries
                        + " boundaries measured");

        try (KafkaConsumer<String, String> ticks = tail(servers);
                KafkaProducer<String, String> producer = producer(servers)) {
            ContractCodec codec = new ContractCodec();
            Instant publishStart = Instant.now();
            for (int i = 0; i < tables; i++) {
                String table = prefix + i;
                RefreshPlan plan =
                        RefreshPlanBuilder.builder()
                                .table(table)
                                .definitionVersion(1)
                                .status(RefreshPlan.Status.ACTIVE)
                                .mode(RefreshPlan.Mode.FULL)
                                .freshness(new RefreshPlan.Freshness(1, "MINUTE"))
                                .freshnessDeclared(true)
                                .checkpointInterval(null)
                                .cron("0 0/1 * * * ? *")
                                .partitionFormatters(Map.of())
                                .changelogMode("[I]")
                                .upsertKey(null)
                                .upstreamTables(List.of())
                                .reasons(List.of("bench"))
                                .warnings(List.of())
                                .plannedAt(Instant.now())
                                .build();
                ProducerRecord<String, String> record =
                        new ProducerRecord<>(
                                Topics.REFRESH_PLANS,
                                table,
                                codec.encode(Contracts.REFRESH_PLANNED_V1, plan));
                record.headers()
                        .add(
                                EventHeaders.TYPE,
                                Contracts.REFRESH_PLANNED_V1
                                        .type()
                                        .getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
            System.out.printf(
                    "published %d plans in %d ms%n",
                    tables, Duration.between(publishStart, Instant.now()).toMillis());

            // Measure from the first boundary at least 70 s away: the catch-ups of new tables are
            // over by then.
            Instant firstBoundary =
                    Instant.ofEpochSecond(
                            (Instant.now().plusSeconds(70).getEpochSecond() / 60 + 1) * 60);
            Instant lastBoundary = firstBoundary.plusSeconds(60L * (boundaries - 1));
            System.out.printf("measuring boundaries %s .. %s%n", firstBoundary, lastBoundary);
            List<Long> lateMillis = new ArrayList<>();
            long cpuStart = 0;
            Instant cpuFrom = null;
            Instant stopAt = lastBoundary.plusSeconds(20);
            while (Instant.now().isBefore(stopAt)) {
                if (cpuFrom == null && Instant.now().isAfter(firstBoundary.minusSeconds(1))) {
                    cpuFrom = Instant.now();
                    cpuStart = cpuTicks(schedulerPid);
                }
                for (ConsumerRecord<String, String> record : ticks.poll(Duration.ofMillis(200))) {
                    if (record.key() == null
                            || !record.key().startsWith(prefix)
                            || !record.value().contains("\"SCHEDULED\"")) {
                        continue;
                    }
                    Instant scheduled =
                            codec.decode(Contracts.REFRESH_TICK_V1, record.value()).scheduledTime();
                    if (!scheduled.isBefore(firstBoundary) && !scheduled.isAfter(lastBoundary)) {
                        lateMillis.add(record.timestamp() - scheduled.toEpochMilli());
                    }
                }
            }
            double cpuSeconds = (cpuTicks(schedulerPid) - cpuStart) / 100.0; // USER_HZ
            double wallSeconds = Duration.between(cpuFrom, Instant.now()).toMillis() / 1000.0;
            Collections.sort(lateMillis);
            System.out.printf(
                    "scheduled ticks measured: %d of %d expected%n",
                    lateMillis.size(), (long) tables * boundaries);
            if (!lateMillis.isEmpty()) {
                System.out.printf(
                        "tick jitter (written - boundary): p50 %d ms, p99 %d ms, max %d ms%n",
                        lateMillis.get(lateMillis.size() / 2),
                        lateMillis.get(
                                Math.min(lateMillis.size() - 1, lateMillis.size() * 99 / 100)),
                        lateMillis.get(lateMillis.size() - 1));
            }
            System.out.printf(
                    "scheduler CPU: %.1f s over %.0f s = %.1f %% of one core%n",
                    cpuSeconds, wallSeconds, 100 * cpuSeconds / wallSeconds);
        }
    }

    /** utime + stime of a process, in clock ticks (Linux). */
    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static KafkaConsumer<String, String> tail(String servers) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions =
                consumer.partitionsFor(Topics.REFRESH_TICKS).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        return consumer;
    }

    private static KafkaProducer<String, String> producer(String servers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }
}
