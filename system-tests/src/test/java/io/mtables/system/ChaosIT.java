package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Postgres;
import io.mtables.oracle.Statements;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.TopicProbe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Faults under a CDC workload from PostgreSQL, one after the other: for ddl-service,
 * planner-service and the job manager the active instance of two is killed (SIGKILL), then one of
 * the two schedulers, the capture (started again), the embedded Flink cluster, the Kafka broker
 * (SIGKILL) and PostgreSQL (immediate shutdown), each started again after 5 s, and at last the
 * instance of each control-plane service that was left (both started again); DDL commands go to
 * {@code mt.ddl.commands} throughout. Afterwards the tables equal PostgreSQL's answer, every
 * command has exactly one result, no minute of a FULL table is ticked twice or skipped, and each
 * part was ready again within {@link #RECOVERY_BOUND} (a cold start of all instances of a service:
 * twice that). Prints a table of the faults. The build injects four of them ({@link
 * #BUILD_FAULTS}); {@code bin/chaos} injects all, runs longer ({@code -Dmt.chaos.workload=PT5M})
 * and against the 30 s goal.
 */
class ChaosIT {

    private static final Duration WORKLOAD =
            Duration.parse(System.getProperty("mt.chaos.workload", "PT60S"));

    /**
     * How soon a part must be ready again; a cold start of every instance, twice that. The goal, 30
     * s, is {@code bin/chaos}'s; the build's run only bounds a hang, at 60 s: on the loaded 2-core
     * CI machine a standby ddl-service once took 34 s to take over.
     */
    private static final Duration RECOVERY_BOUND =
            Duration.parse(System.getProperty("mt.chaos.recovery-bound", "PT60S"));

    private static final Duration COLD_START_BOUND = RECOVERY_BOUND.multipliedBy(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ExampleServices SERVICES =
            new ExampleServices("chaos", 18780, 8, "1g").withStandbys().crashingPostgres();
    private static final String SCHEMA = SERVICES.schema();
    private static final List<String> CONTROL_PLANE =
            List.of("ddl-service", "planner-service", "job-manager-service");

    @BeforeAll
    static void startServices() throws Exception {
        SERVICES.start(true, List.of(Example.named("users-domains")));
    }

    @AfterAll
    static void stopServices() throws Exception {
        SERVICES.close();
    }

    @Test
    void underAWorkloadEveryKilledPartIsReadyAgainAndNothingIsLostOrDoubled() throws Exception {
        Example example = Example.named("users-domains");
        harness(example, 31, Duration.ZERO).declareTables();
        String full = "default_catalog." + SCHEMA + ".domains_per_user";
        TopicProbe ticks = new TopicProbe().tail(Topics.REFRESH_TICKS);
        statements()
                .send(
                        "CREATE MATERIALIZED TABLE "
                                + SCHEMA
                                + ".domains_per_user FRESHNESS = INTERVAL '1' MINUTE REFRESH_MODE ="
                                + " FULL AS SELECT user_id, COUNT(*) AS domains FROM "
                                + SCHEMA
                                + ".user_domains GROUP BY user_id");
        SERVICES.awaitActivated(List.of("user_domains"), Duration.ofMinutes(3));

        List<String[]> faults = new ArrayList<>();
        Map<String, String> commands = new HashMap<>();
        try (ticks;
                TopicProbe results = new TopicProbe().tail(Topics.DDL_RESULTS);
                TopicProbe sender = new TopicProbe()) {
            AtomicBoolean sending = new AtomicBoolean(true);
            CompletableFuture<Void> commandLoad =
                    CompletableFuture.runAsync(() -> sendCommands(sender, commands, sending));
            CompletableFuture<Void> injected =
                    CompletableFuture.runAsync(() -> injectFaults(faults));
            int changes = harness(example, 32, WORKLOAD).drive(() -> {});
            // The last faults may come after the workload (each waits for the one before to
            // recover): the comparison with PostgreSQL starts once they are all over.
            injected.join();
            sending.set(false);
            commandLoad.join();
            Harness.Report settled = harness(example, 32, Duration.ZERO).awaitAgreement(changes);

            System.out.println("| fault | down for | ready again after |");
            System.out.println("|---|---|---|");
            faults.forEach(
                    f -> System.out.println("| " + f[0] + " | " + f[2] + " | " + f[1] + " ms |"));
            assertThat(settled.differingRows())
                    .as("the join equals PostgreSQL after every fault")
                    .isZero();
            assertThat(changes).isPositive();
            for (String[] fault : faults) {
                // A part with a standby (or a supervisor) is back within the bound; losing every
                // instance is a cold start: new JVMs, the dead one's session to expire, the state
                // read back (26.8 s measured for ddl-service by bin/chaos).
                Duration bound =
                        fault[0].contains("the last one") ? COLD_START_BOUND : RECOVERY_BOUND;
                assertThat(Long.parseLong(fault[1]))
                        .as(fault[0] + ": ready again within " + bound.toSeconds() + " s")
                        .isLessThanOrEqualTo(bound.toMillis());
            }
            Map<String, List<JsonNode>> answers = drain(results, commands.keySet());
            // A command redelivered after a kill (its offset not committed) is not answered again.
            System.out.printf(
                    "commands: %d sent, %d answered, %d of them answered twice or more%n",
                    commands.size(),
                    commands.keySet().stream().filter(answers::containsKey).count(),
                    commands.keySet().stream()
                            .filter(id -> answers.getOrDefault(id, List.of()).size() > 1)
                            .count());
            for (String requestId : commands.keySet()) {
                assertThat(answers.get(requestId))
                        .as("command " + requestId + " answered")
                        .hasSize(1)
                        .extracting(a -> a.path("status").asText() + " " + a.path("table"))
                        .as("command " + requestId + ": its outcome")
                        .containsOnly("SUCCEEDED \"" + commands.get(requestId) + "\"");
            }
            assertMinutesTickedOnce(ticks, full);
        }
    }

    /** One CREATE every 2 s as a command with a request id of its own, until told to stop. */
    private static void sendCommands(
            TopicProbe sender, Map<String, String> commands, AtomicBoolean sending) {
        String database = "chaos_cmd_" + UUID.randomUUID().toString().substring(0, 6);
        for (int i = 0; sending.get(); i++) {
            String requestId = database + "-" + i;
            String table = "default_catalog." + database + ".t" + i;
            sender.send(
                    Topics.DDL_COMMANDS,
                    requestId,
                    "{\"statement\": \"CREATE TABLE "
                            + database
                            + ".t"
                            + i
                            + " (a INT) WITH ('connector' = 'datagen')\", \"requestId\": \""
                            + requestId
                            + "\"}",
                    Map.of(EventHeaders.AUTHORIZATION, TestCredentials.AUTHORIZATION));
            synchronized (commands) {
                commands.put(requestId, table);
            }
            pause(Duration.ofSeconds(2));
        }
    }

    /** How many faults {@link #injectFaults} injects. */
    private static final int FAULTS = 11;

    /** How long the broker and PostgreSQL stay down. */
    private static final Duration OUTAGE = Duration.ofSeconds(5);

    /**
     * Every process answers ready (a standby too; one killed by an earlier fault and not started
     * again aside), and each control-plane service has an active instance.
     */
    private static boolean everyProcessReady() {
        return SERVICES.processes().stream()
                        .filter(p -> !p.killedOnPurpose())
                        .allMatch(p -> p.readiness().up())
                && CONTROL_PLANE.stream()
                        .allMatch(
                                module ->
                                        SERVICES.instances(module).stream()
                                                .anyMatch(ChaosIT::activeAndReady));
    }

    /**
     * Whether a statement that writes to Kafka (a source table's definition) is applied now: the
     * broker takes records again, and ddl-service writes them.
     */
    private static boolean aDefinitionIsWritten() {
        try {
            statements()
                    .send(
                            "CREATE TABLE "
                                    + SCHEMA
                                    + "_probe.t"
                                    + UUID.randomUUID().toString().substring(0, 8)
                                    + " (a INT) WITH ('connector' = 'datagen')");
            return true;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /**
     * Whether the capture streams from its replication slot again. (Not whether it confirmed
     * PostgreSQL's position at its start: with the tables idle after a restart of the connector,
     * the slot's confirmed position stays where it was until the next change, heartbeats or not;
     * seen in this test, docs/cdc.md.)
     */
    private static boolean captureStreams() {
        try {
            return Postgres.local()
                    .rows(
                            "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                                    + SERVICES.slot()
                                    + "' AND active")
                    .get(0)
                    .get(0)
                    .equals("1");
        } catch (SQLException notYet) {
            return false;
        }
    }

    /**
     * The faults, spread over the workload: one every {@link #FAULTS}th of it, or once the last
     * recovered.
     */
    private void injectFaults(List<String[]> faults) {
        Instant start = Instant.now();
        try {
            int running = runningJobs();
            for (String module : CONTROL_PLANE) {
                inTurn(
                        faults,
                        start,
                        module + ": the active one of two (SIGKILL)",
                        () -> {
                            ServiceProcess standby = SERVICES.killActive(module);
                            return () -> activeAndReady(standby);
                        });
            }
            inTurn(
                    faults,
                    start,
                    "refresh-scheduler-service: one of two (SIGKILL), started again",
                    () -> {
                        ServiceProcess one = SERVICES.instances("refresh-scheduler-service").get(0);
                        one.kill();
                        SERVICES.restartKilled("refresh-scheduler-service");
                        return () -> one.readiness().up();
                    });
            inTurn(
                    faults,
                    start,
                    "cdc-capture-service (SIGKILL), started again",
                    () -> {
                        SERVICES.killAndRestartCapture();
                        return () -> true;
                    });
            inTurn(
                    faults,
                    start,
                    "the embedded Flink cluster (SIGKILL)",
                    () -> {
                        SERVICES.killFlinkCluster();
                        return () -> runningJobs() >= running;
                    });
            inTurn(
                    faults,
                    start,
                    "the Kafka broker (SIGKILL), started again after 5 s",
                    () -> {
                        BackingServiceOutages.killBrokerAndStartAgain(OUTAGE);
                        return () ->
                                everyProcessReady()
                                        && runningJobs() >= running
                                        && aDefinitionIsWritten();
                    },
                    true);
            inTurn(
                    faults,
                    start,
                    "PostgreSQL (immediate shutdown), started again after 5 s",
                    () -> {
                        BackingServiceOutages.crashPostgresAndStartAgain(OUTAGE);
                        return () -> everyProcessReady() && captureStreams();
                    },
                    true);
            for (String module : CONTROL_PLANE) {
                inTurn(
                        faults,
                        start,
                        module + ": the last one (SIGKILL), both started again",
                        () -> {
                            for (ServiceProcess instance : SERVICES.instances(module)) {
                                instance.kill();
                            }
                            SERVICES.restartKilled(module);
                            return () ->
                                    SERVICES.instances(module).stream()
                                            .anyMatch(ChaosIT::activeAndReady);
                        });
            }
            if (ONLY.isEmpty()) {
                assertThat(faults).as("faults injected").hasSize(FAULTS);
            }
            for (String word : ONLY) {
                assertThat(faults)
                        .as("a fault named after " + word + " injected")
                        .anyMatch(fault -> fault[0].contains(word));
            }
        } catch (Exception e) {
            throw new IllegalStateException("injecting faults", e);
        }
    }

    /**
     * Injects a fault and returns its name, the milliseconds until {@code recovered} (which the
     * injection returns) held, polled every 200 ms for at most 2 minutes, and how long the part was
     * down. For a process killed, recovery is timed from the kill (its standby or its start again
     * is the recovery); for the broker and PostgreSQL ({@code outage}), whose injection returns
     * once they run again, from then on: the time the services take to be whole again.
     */
    private static String[] fault(String name, Callable<BooleanSupplier> inject, boolean outage)
            throws Exception {
        System.out.println("fault at " + Instant.now() + ": " + name);
        Instant at = Instant.now();
        BooleanSupplier recovered = inject.call();
        Instant back = outage ? Instant.now() : at;
        try {
            Awaitility.await()
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(recovered::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    name + ": not recovered in 2 minutes; " + ProcessDiagnosis.of(SERVICES), e);
        }
        long took = Duration.between(back, Instant.now()).toMillis();
        pause(Duration.ofSeconds(3)); // the workload goes on between faults
        return new String[] {
            name, String.valueOf(took), outage ? Duration.between(at, back).toMillis() + " ms" : "-"
        };
    }

    /**
     * The faults the build injects: those no other system test injects (the broker, PostgreSQL),
     * and the ddl-service's two (the commands on {@code mt.ddl.commands} are answered once across
     * them). The job manager's and planner-service's takeovers, the capture, a scheduler, the Flink
     * cluster and the cold starts are each injected by another test too (OracleAcrossServicesIT,
     * SchedulerFailoverIT, DataPlaneAcrossServicesIT, PlanAcrossServicesIT); {@code bin/chaos}
     * injects all eleven.
     */
    private static final String BUILD_FAULTS = "ddl-service,broker,PostgreSQL";

    /**
     * The faults to inject, by part of their name ({@code -Dmt.chaos.only=broker,PostgreSQL}, to
     * look at a few; {@code all} for every one).
     */
    private static final List<String> ONLY =
            List.of(System.getProperty("mt.chaos.only", BUILD_FAULTS).split(",")).stream()
                    .filter(name -> !name.isBlank() && !name.equals("all"))
                    .toList();

    /** Injects the fault in its turn (unless {@link #ONLY} leaves it out) and adds its figures. */
    private static void inTurn(
            List<String[]> faults, Instant start, String name, Callable<BooleanSupplier> inject)
            throws Exception {
        inTurn(faults, start, name, inject, false);
    }

    private static void inTurn(
            List<String[]> faults,
            Instant start,
            String name,
            Callable<BooleanSupplier> inject,
            boolean outage)
            throws Exception {
        if (!ONLY.isEmpty() && ONLY.stream().noneMatch(name::contains)) {
            return;
        }
        awaitTurn(start, faults.size());
        faults.add(fault(name, inject, outage));
    }

    /** Waits until the {@code n}th fault's turn: {@code n / FAULTS} of the workload after start. */
    private static void awaitTurn(Instant start, int n) {
        Duration wait =
                Duration.between(
                        Instant.now(), start.plus(WORKLOAD.multipliedBy(n).dividedBy(FAULTS)));
        if (!wait.isNegative()) {
            pause(wait);
        }
    }

    private static boolean activeAndReady(ServiceProcess instance) {
        ServiceProcess.Readiness readiness = instance.readiness();
        return readiness.up() && !readiness.standingBy();
    }

    /**
     * Tables' streaming jobs RUNNING on the embedded cluster (a FULL table's refresh, a batch job
     * that comes and goes, aside), or -1 while it does not answer.
     */
    private static int runningJobs() {
        try {
            HttpResponse<String> response =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create(SERVICES.flinkRest() + "/jobs/overview"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return -1;
            }
            int streaming = 0;
            for (JsonNode job : JSON.readTree(response.body()).path("jobs")) {
                String name = job.path("name").asText();
                // Tables' jobs only: not the cluster's warm-up ("mt-warm-up").
                if (job.path("state").asText().equals("RUNNING")
                        && name.startsWith("mt:")
                        && !name.contains(":refresh:")) {
                    streaming++;
                }
            }
            return streaming;
        } catch (Exception e) {
            return -1;
        }
    }

    /** Every result of the given commands that arrived, by request id. */
    private static Map<String, List<JsonNode>> drain(TopicProbe results, Set<String> requestIds)
            throws Exception {
        Map<String, List<JsonNode>> answers = new HashMap<>();
        Instant end = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(end)
                && !(answers.keySet().containsAll(requestIds) && quiet(results, answers))) {
            collect(results, answers, Duration.ofSeconds(2));
        }
        return answers;
    }

    private static boolean quiet(TopicProbe results, Map<String, List<JsonNode>> answers)
            throws Exception {
        return !collect(results, answers, Duration.ofSeconds(3));
    }

    private static boolean collect(
            TopicProbe results, Map<String, List<JsonNode>> answers, Duration wait)
            throws Exception {
        try {
            var record = results.await(r -> r.value() != null, wait);
            answers.computeIfAbsent(record.key(), k -> new ArrayList<>())
                    .add(JSON.readTree(record.value()));
            return true;
        } catch (AssertionError none) {
            return false;
        }
    }

    /**
     * The FULL table's ticks since it was created: no boundary twice, none skipped between its
     * first and last tick.
     */
    private static void assertMinutesTickedOnce(TopicProbe ticks, String table) throws Exception {
        List<Instant> boundaries = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        while (true) {
            try {
                var record = ticks.await(r -> table.equals(r.key()), Duration.ofSeconds(3));
                JsonNode tick = JSON.readTree(record.value());
                seen.add(tick.path("scheduledTime").asText() + " " + tick.path("reason").asText());
                if (!tick.path("reason").asText().equals("MANUAL")) {
                    boundaries.add(Instant.parse(tick.path("scheduledTime").asText()));
                }
            } catch (AssertionError none) {
                break;
            }
        }
        System.out.println(table + " ticked: " + seen);
        assertThat(boundaries).as("ticks of the FULL table").isNotEmpty().doesNotHaveDuplicates();
        TreeSet<Instant> sorted = new TreeSet<>(boundaries);
        for (Instant b = sorted.first(); b.isBefore(sorted.last()); b = b.plusSeconds(60)) {
            assertThat(sorted).as("the minute " + b + " ticked").contains(b);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Statements statements() {
        return SERVICES.statements();
    }

    private static Harness harness(Example example, long seed, Duration duration) {
        return SERVICES.harness(example, seed, duration);
    }
}
