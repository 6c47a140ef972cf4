package io.mtables.system;

import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Postgres;
import io.mtables.oracle.Statements;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;

/**
 * Every service an oracle example runs through, as processes on ports of their own: the example's
 * PostgreSQL tables, cdc-capture-service over a schema of this run, ddl-service, planner-service,
 * job-manager-service with an embedded Flink cluster, and (optionally) the scheduler. Closing stops
 * them and removes the cluster, the slot, the publication and the schema.
 */
final class ExampleServices implements AutoCloseable {

    static final Postgres POSTGRES = Postgres.local();

    /**
     * The CA that signed the machine's PostgreSQL's certificate (bin/postgres): the capture checks
     * the server with it (sslmode=verify-full).
     */
    static final String POSTGRES_CA =
            System.getenv()
                    .getOrDefault(
                            "MT_TEST_PG_SSLROOTCERT", "/etc/postgresql/15/main/mtables-tls/ca.crt");

    /**
     * How long a test drives an example's workload: about 750 changes at 50 a second, the build's
     * small scale (bin/oracle drives longer).
     */
    static final Duration WORKLOAD = Duration.ofSeconds(15);

    private final String schema;
    private final Path data;
    private final int basePort;
    private final int taskSlots;
    private final String flinkHeap;
    private final String slot;
    private final List<ServiceProcess> others = new ArrayList<>();
    private final Map<String, List<ServiceProcess>> instances = new HashMap<>();
    private boolean standbys;
    private boolean crashesPostgres;
    private MachinePostgresLock postgresLock;
    private volatile int ddlPort;
    private ServiceProcess cdc;

    /**
     * @param name the schema's prefix; the schema is {@code <name>_<random>}
     * @param basePort ddl-service listens on base + 1, planner + 2, scheduler + 3, job manager + 4,
     *     Flink + 5, the capture + 6 (and {@link #withStandbys()} + 7, + 8, + 9)
     */
    ExampleServices(String name, int basePort, int taskSlots, String flinkHeap) {
        this.schema = name + "_" + UUID.randomUUID().toString().substring(0, 8);
        this.data = Path.of("target/" + name + "-data").toAbsolutePath();
        this.basePort = basePort;
        this.taskSlots = taskSlots;
        this.flinkHeap = flinkHeap;
        this.slot = "mt_cdc_" + schema;
        this.ddlPort = basePort + 1;
    }

    String schema() {
        return schema;
    }

    /** The REST API of the embedded Flink cluster the job manager runs. */
    /** The capture's PostgreSQL replication slot. */
    String slot() {
        return slot;
    }

    String flinkRest() {
        return "http://127.0.0.1:" + (basePort + 5);
    }

    /** The Paimon warehouse the services write. */
    Path warehouse() {
        return data.resolve("warehouse");
    }

    /**
     * Runs two instances of ddl-service, planner-service and the job manager (the second ones on
     * base + 9, + 7 and + 8; a second scheduler on + 10): one acts, one stands by.
     */
    ExampleServices withStandbys() {
        standbys = true;
        return this;
    }

    /**
     * The test crashes the machine's PostgreSQL: it waits until no other test (in either lane of
     * bin/test) uses it, and keeps it to itself until closed.
     */
    ExampleServices crashingPostgres() {
        crashesPostgres = true;
        return this;
    }

    /**
     * Kills the active instance of {@code module} with SIGKILL and returns the one that stood by,
     * which is to take over.
     */
    ServiceProcess killActive(String module) throws InterruptedException {
        List<ServiceProcess> both = instances.get(module);
        ServiceProcess active =
                both.stream()
                        .filter(instance -> !instance.readiness().standingBy())
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no active " + module));
        active.kill();
        ServiceProcess standby =
                both.stream().filter(instance -> instance != active).findFirst().orElseThrow();
        if (module.equals("ddl-service")) {
            ddlPort = standby.port(); // statements() goes to the one left
        }
        return standby;
    }

    /**
     * Starts again every instance of {@code module} that is not running (side by side); the front
     * door goes to one that runs.
     */
    void restartKilled(String module) {
        List<ServiceProcess> dead =
                instances.get(module).stream().filter(instance -> !instance.isAlive()).toList();
        ServiceProcess.startTogether(dead);
        if (module.equals("ddl-service")) {
            ddlPort = instances.get(module).get(0).port();
        }
    }

    /** Every process of this run: the capture, then each instance of each service. */
    List<ServiceProcess> processes() {
        List<ServiceProcess> all = new ArrayList<>(others);
        all.add(0, cdc);
        return all;
    }

    /** Every instance of {@code module} this run started. */
    List<ServiceProcess> instances(String module) {
        return instances.get(module);
    }

    /** Kills the embedded Flink cluster (SIGKILL); the job manager starts it again. */
    void killFlinkCluster() throws IOException {
        Path pidFile = data.resolve("flink/cluster.pid");
        ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                .ifPresent(
                        p -> {
                            p.destroyForcibly();
                            p.onExit().join();
                        });
    }

    /** The statements of the ddl-service instance standing by (it forwards them). */
    Statements standbyStatements() {
        return instances.get("ddl-service").stream()
                .filter(instance -> instance.readiness().standingBy())
                .findFirst()
                .map(
                        instance ->
                                new Statements(
                                        "http://127.0.0.1:" + instance.port(),
                                        TestCredentials.API_KEY))
                .orElseThrow(() -> new AssertionError("no ddl-service stands by"));
    }

    /**
     * Prepares the examples' PostgreSQL tables (before the capture starts: its publication covers
     * what it finds), then starts the services.
     */
    ExampleServices start(boolean withScheduler, List<Example> examples) throws Exception {
        postgresLock = crashesPostgres ? MachinePostgresLock.alone() : MachinePostgresLock.shared();
        deleteRecursively(data);
        for (Example example : examples) {
            harness(example, 0, Duration.ZERO).preparePostgres();
        }
        cdc = cdc();
        instance(new ServiceProcess("ddl-service", basePort + 1, "mt.data-dir=" + data));
        instance(new ServiceProcess("planner-service", basePort + 2));
        instance(jobManager(basePort + 4));
        if (standbys) {
            instance(new ServiceProcess("ddl-service", basePort + 9, "mt.data-dir=" + data));
            instance(new ServiceProcess("planner-service", basePort + 7));
            instance(jobManager(basePort + 8));
        }
        if (withScheduler) {
            instance(
                    new ServiceProcess(
                            "refresh-scheduler-service",
                            basePort + 3,
                            "mt.scheduler.catch-up-window=2s"));
            if (standbys) {
                instance(
                        new ServiceProcess(
                                "refresh-scheduler-service",
                                basePort + 10,
                                "mt.scheduler.catch-up-window=2s"));
            }
        }
        List<ServiceProcess> all = new ArrayList<>(others);
        all.add(0, cdc);
        ServiceProcess.startTogether(all); // close() stops those that did start
        return this;
    }

    private void instance(ServiceProcess service) {
        others.add(service);
        instances.computeIfAbsent(service.module(), m -> new ArrayList<>()).add(service);
    }

    /** Every instance shares the data directory and the embedded cluster: one acts at a time. */
    private ServiceProcess jobManager(int port) {
        return new ServiceProcess(
                "job-manager-service",
                port,
                "mt.data-dir=" + data,
                "mt.flink.embedded.port=" + (basePort + 5),
                "mt.flink.embedded.task-slots=" + taskSlots,
                "mt.flink.embedded.heap=" + flinkHeap,
                "mt.jobs.include=default_catalog\\." + schema + "\\..*");
    }

    private ServiceProcess cdc() {
        return new ServiceProcess(
                "cdc-capture-service",
                basePort + 6,
                "mt.cdc.tables=" + schema + "\\..*",
                "mt.cdc.database.sslmode=verify-full",
                "mt.cdc.database.sslrootcert=" + POSTGRES_CA,
                "mt.cdc.slot-name=" + slot,
                "mt.cdc.publication=" + slot,
                "mt.cdc.offsets-topic=mt.cdc.offsets." + schema,
                // Debezium's own offset flush seldom: an at-least-once capture killed would send
                // up to 30 s of changes again. Ours commits its position with each batch.
                "mt.cdc.offset-flush-interval=30s");
    }

    /**
     * Kills the capture with SIGKILL and starts it again: it resumes after the last change it
     * committed to Kafka, the position being committed with it.
     */
    void killAndRestartCapture() {
        try {
            cdc.kill();
            cdc = cdc().start();
        } catch (Exception e) {
            throw new IllegalStateException("restarting cdc-capture-service", e);
        }
    }

    /**
     * The front door: ddl-service; with standbys every instance, the one left after {@link
     * #killActive} first (a client with a list of addresses, as behind a load balancer).
     */
    Statements statements() {
        List<String> urls = new ArrayList<>();
        urls.add("http://127.0.0.1:" + ddlPort);
        instances.getOrDefault("ddl-service", List.of()).stream()
                .filter(instance -> instance.port() != ddlPort)
                .forEach(instance -> urls.add("http://127.0.0.1:" + instance.port()));
        return new Statements(urls, TestCredentials.API_KEY);
    }

    /**
     * Waits until every one of {@code tables} (names in this run's schema) runs its job (status
     * ACTIVATED): the jobs are compiled and submitted one after the other, minutes for the TPC-H
     * queries on this machine, and a workload compared before a job ran proves nothing.
     */
    void awaitActivated(List<String> tables, Duration patience) {
        // One statement a poll for all of them: each is a query ddl-service plans and runs.
        String prefix = "default_catalog." + schema + ".";
        Awaitility.await()
                .atMost(patience)
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(
                        () -> {
                            Map<String, String> status = new HashMap<>();
                            for (List<String> row :
                                    statements()
                                            .rows(
                                                    "SELECT table_name, status FROM"
                                                        + " information_schema.materialized_tables"
                                                        + " WHERE table_name LIKE '"
                                                            + prefix
                                                            + "%'")) {
                                status.put(row.get(0), row.get(1));
                            }
                            for (String table : tables) {
                                Assertions.assertThat(status.get(prefix + table))
                                        .as(table + "'s job runs")
                                        .isEqualTo("ACTIVATED");
                            }
                        });
    }

    /** A harness for one run of an example, waiting up to 3 minutes for agreement. */
    Harness harness(Example example, long seed, Duration duration) {
        return new Harness(
                new Harness.Settings(
                        example,
                        schema,
                        "cdc",
                        KafkaBroker.bootstrapServers(),
                        seed,
                        duration,
                        50,
                        Duration.ofMinutes(3)),
                POSTGRES,
                statements(),
                System.out);
    }

    /**
     * A markdown table of each table's query, mode and key as the plans ddl-service shows say, with
     * the schema written {@code s}; the same as {@code docs/planner.md} holds, or the test fails.
     */
    String planTable(Map<String, String> queriesByTable) {
        StringBuilder table =
                new StringBuilder("| table | query | mode | key |\n|---|---|---|---|\n");
        queriesByTable.forEach(
                (name, query) -> {
                    Map<String, String> plan = new HashMap<>();
                    for (var row :
                            statements()
                                    .send("DESCRIBE MATERIALIZED TABLE " + schema + "." + name)
                                    .path("rows")) {
                        plan.put(row.path(0).asText(), row.path(1).asText());
                    }
                    table.append("| ")
                            .append(name)
                            .append(" | `")
                            .append(query.replace("|", "\\|"))
                            .append("` | ")
                            .append(plan.get("plan.mode"))
                            .append(" | ")
                            .append(plan.get("plan.upsert_key"))
                            .append(" |\n");
                });
        return table.toString();
    }

    /**
     * Fails unless docs/planner.md holds {@code table}, which is also written to target/{@code
     * file} to copy from.
     */
    static void assertDocumented(String table, String file) throws IOException {
        Files.writeString(Path.of("target", file), table);
        Assertions.assertThat(Files.readString(Path.of("../docs/planner.md")))
                .as(
                        "docs/planner.md holds the table this run generated (system-tests/target/"
                                + file
                                + ")")
                .contains(table.lines().toArray(String[]::new));
    }

    @Override
    public void close() throws Exception {
        try {
            stopAndRemove();
        } finally {
            if (postgresLock != null) {
                postgresLock.close(); // a JVM may hold one lock on the file at a time
                postgresLock = null;
            }
        }
    }

    private void stopAndRemove() throws Exception {
        // Side by side: one after the other, a graceful stop each (2-10 s) added up to 40 s a run.
        ServiceProcess.stopTogether(processes().stream().filter(p -> p != null).toList());
        Path pidFile = data.resolve("flink/cluster.pid");
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                    .ifPresent(
                            p -> {
                                p.destroyForcibly();
                                p.onExit().join();
                            });
        }
        POSTGRES.execute(
                List.of(
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE"
                                + " slot_name = '"
                                + slot
                                + "' AND NOT active",
                        "DROP PUBLICATION IF EXISTS " + slot,
                        "DROP SCHEMA IF EXISTS " + schema + " CASCADE"));
    }

    private static void deleteRecursively(Path root) throws Exception {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
