package io.mtables.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.messaging.KafkaAcls;
import io.mtables.messaging.TopicCreator;
import io.mtables.oracle.Example;
import io.mtables.oracle.Harness;
import io.mtables.oracle.Statements;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.KafkaPrincipals;
import io.mtables.schemas.Topics;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.TopicProbe;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The system spread over hosts, as a platform team runs it: every component a process on a host of
 * its own ({@link NetworkHosts}: a network namespace and an address each), meeting only over the
 * network. The object store (S3Proxy), the broker, PostgreSQL, a Flink session cluster of a
 * JobManager and two TaskManagers, and the five services; no file path is shared by any two of
 * them: the warehouse, checkpoints and savepoints are on the object store, every process has a
 * directory of its own, and the test proves none of them holds table data or state.
 *
 * <p>The broker is secured as docs/security.md says a production one is: every client connects over
 * TLS, each service as its own principal (SASL/SCRAM), the broker allows what {@link
 * KafkaPrincipals} grants and nothing else, the topics are made by the operator (the test, as the
 * broker's admin), and the Flink jobs read the change topics with the job manager's credentials.
 * Every other connection between hosts is TLS too ({@link HostsTls}): statements (HTTPS alone),
 * PostgreSQL (TLS alone, the capture checking the server), the object store (HTTPS alone), Flink's
 * REST port (mutual TLS: job-manager-service and the operator alone) and Flink's internal
 * connections.
 *
 * <p>One scenario: the users x domains example from PostgreSQL into a CONTINUOUS table that equals
 * PostgreSQL's join; a TaskManager killed with SIGKILL in the middle of the load (the job goes on
 * on the other one from its checkpoint on the store; the table still equals the oracle); SUSPEND
 * and RESUME through a savepoint on the store; every comparison reads the table through
 * ddl-service's SELECT, from the store.
 */
class DistributedIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final List<String> HOST_NAMES =
            List.of(
                    "store",
                    "kafka",
                    "postgres",
                    "flink-jm",
                    "flink-tm1",
                    "flink-tm2",
                    "cdc",
                    "ddl",
                    "planner",
                    "jobs",
                    "scheduler");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path HOMES = Path.of("target/distributed").toAbsolutePath();
    private static final int SERVICE_PORT = 8080;
    private static final int HTTPS_PORT = 8443;
    private static final int S3_PORT = 9900;
    private static final int KAFKA_PORT = 9092;
    private static final String ACCESS_KEY = "mt";
    private static final String SECRET_KEY = "mt-secret-key";
    private static final String KAFKA_ADMIN = "admin";

    /** A password per Kafka principal, new each run. */
    private static final Map<String, String> KAFKA_PASSWORDS = kafkaPasswords();

    private static final String SCHEMA = "dist_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String TABLE = SCHEMA + ".user_domains";
    private static final String STATE = "s3://mtables/" + SCHEMA;

    private static NetworkHosts network;
    private static final List<Runnable> stops = new ArrayList<>();
    private static final Map<String, String> processes = new LinkedHashMap<>();
    private static HostedPostgres postgres;
    private static HostedFlinkProcess jobManager;
    private static final List<HostedFlinkProcess> taskManagers = new ArrayList<>();
    private static Statements statements;
    private static HostCertificates ddlCertificates;
    private static HostsTls tls;
    private static HttpClient flinkClient;

    @BeforeAll
    static void startEveryComponentOnItsOwnHost() throws Exception {
        String why = NetworkHosts.whyNotAvailable();
        if (why != null) {
            Assumptions.abort(
                    "network namespaces are refused here (run as root on Linux with iproute2): "
                            + why);
        }
        deleteRecursively(HOMES);
        network = NetworkHosts.create(HOST_NAMES);
        stops.add(network::close);

        startScript(
                "store",
                "bin/objectstore",
                Map.of(
                        "MT_S3_HOST",
                        address("store"),
                        "MT_S3_PORT",
                        String.valueOf(S3_PORT),
                        "MT_OBJECTSTORE_HOME",
                        home("store").toString(),
                        "MT_S3_ACCESS_KEY",
                        ACCESS_KEY,
                        "MT_S3_SECRET_KEY",
                        SECRET_KEY,
                        "MT_S3_TLS",
                        "true"));
        tls =
                HostsTls.issue(
                        HOMES.resolve("tls"),
                        address("flink-jm"),
                        List.of(address("flink-jm"), address("flink-tm1"), address("flink-tm2")),
                        home("store").resolve("tls/objectstore.pem"));
        flinkClient =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(2))
                        .sslContext(tls.operator())
                        .build();
        startScript(
                "kafka",
                "bin/kafka",
                Map.of(
                        "MT_KAFKA_HOST",
                        address("kafka"),
                        "MT_KAFKA_PORT",
                        String.valueOf(KAFKA_PORT),
                        "MT_KAFKA_CONTROLLER_PORT",
                        "9093",
                        "MT_KAFKA_HOME",
                        home("kafka").toString(),
                        "MT_KAFKA_SCRAM_USERS",
                        String.join(
                                ",",
                                KAFKA_PASSWORDS.entrySet().stream()
                                        .map(e -> e.getKey() + "=" + e.getValue())
                                        .toList())));
        createTopicsAndAcls();
        postgres = HostedPostgres.start(network.host("postgres"));
        stops.add(0, () -> close(postgres));
        processes.put(
                "postgres",
                "PostgreSQL 15 (pid "
                        + postgres.pid()
                        + ") on "
                        + postgres.address()
                        + ":"
                        + HostedPostgres.PORT);

        harness(0, Duration.ZERO)
                .preparePostgres(); // before the capture starts: its publication covers what it
        // finds
        startFlink();
        startServices();
        System.out.println(
                "hosts of the distributed test, each a network namespace of its own; every"
                        + " process's files in its own directory (postgres: "
                        + postgres.home()
                        + "), the warehouse, checkpoints and savepoints on "
                        + STATE
                        + ":");
        processes.forEach(
                (host, what) ->
                        System.out.printf(
                                "  %-10s %s, files in %s%n",
                                host,
                                what,
                                host.equals("postgres") ? postgres.home() : home(host)));
    }

    @AfterAll
    static void stopEverything() {
        for (Runnable stop : stops) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                System.err.println("stopping: " + e);
            }
        }
    }

    @Test
    void
            usersJoinDomainsOnSeparateHostsSurvivesATaskManagerKilledAndASuspendWithStateOnTheObjectStore()
                    throws Exception {
        Harness first = harness(1, Duration.ofSeconds(24));
        first.declareTables();
        String jobId = awaitRunningJob();
        HostedFlinkProcess victim = taskManagerRunning(jobId);

        Harness.Report loaded =
                first.run(
                        () -> {
                            System.out.println(
                                    "killing the TaskManager that runs the job with SIGKILL: "
                                            + victim
                                            + " (pid "
                                            + victim.pid()
                                            + ")");
                            victim.kill();
                        });
        assertThat(loaded.differingRows())
                .as("seed 1, a TaskManager killed with SIGKILL halfway")
                .isZero();
        assertThat(loaded.changes()).isPositive();
        String restored =
                flink("/jobs/" + jobId + "/checkpoints")
                        .path("latest")
                        .path("restored")
                        .path("external_path")
                        .asText();
        assertThat(restored)
                .as("the job went on from a checkpoint on the object store")
                .startsWith(STATE + "/checkpoints/");
        assertThat(taskManagerRunning(jobId)).as("on the TaskManager left").isNotSameAs(victim);

        try (TopicProbe events =
                new TopicProbe(bootstrap(), kafkaSecurity(KAFKA_ADMIN))
                        .tail(Topics.REFRESH_EVENTS)) {
            statements.send("ALTER MATERIALIZED TABLE " + TABLE + " SUSPEND");
            JsonNode suspended = event(events, Contracts.SUSPENDED_V1.type());
            assertThat(suspended.path("savepoint").asText())
                    .as("the savepoint is on the object store")
                    .startsWith(STATE + "/savepoints/");
            statements.send("ALTER MATERIALIZED TABLE " + TABLE + " RESUME");
            JsonNode started = event(events, Contracts.JOB_STARTED_V1.type());
            assertThat(started.path("restoredFrom").asText())
                    .as("RESUME restores it from the store")
                    .isEqualTo(suspended.path("savepoint").asText());
        }
        Harness.Report resumed = harness(2, Duration.ofSeconds(12)).run(() -> {});
        assertThat(resumed.differingRows()).as("seed 2, after SUSPEND and RESUME").isZero();

        assertThat(localTableDataOrState())
                .as(
                        "no process keeps table data or state in its own directory: it is all on"
                                + " the store")
                .isEmpty();
    }

    @Test
    void theBrokerAllowsEachPrincipalWhatItsServiceDoesAndNothingElse() throws Exception {
        assertThat(produce(KafkaPrincipals.CLIENT.name(), Topics.DDL_COMMANDS))
                .as("a client sends commands")
                .isNull();
        assertThat(produce(KafkaPrincipals.CLIENT.name(), Topics.TABLE_DEFINITIONS))
                .as("a client forging a definition")
                .isInstanceOf(TopicAuthorizationException.class);
        assertThat(produce(KafkaPrincipals.PLANNER_SERVICE.name(), Topics.DDL_COMMANDS))
                .as("a principal without the ACL sending a command")
                .isInstanceOf(TopicAuthorizationException.class);
        assertThat(produce(KafkaPrincipals.JOB_MANAGER_SERVICE.name(), Topics.DDL_ACCESS))
                .as("the job manager granting itself privileges")
                .isInstanceOf(TopicAuthorizationException.class);
        Map<String, Object> wrongPassword = new HashMap<>(kafkaSecurity(KAFKA_ADMIN));
        wrongPassword.put("sasl.jaas.config", jaas(KAFKA_ADMIN, "not-the-password"));
        wrongPassword.put("bootstrap.servers", bootstrap());
        assertThat(refusal(wrongPassword))
                .as("a wrong password")
                .isInstanceOf(SaslAuthenticationException.class);
        Map<String, Object> untrusting = new HashMap<>(kafkaSecurity(KAFKA_ADMIN));
        untrusting.remove("ssl.truststore.type");
        untrusting.remove("ssl.truststore.certificates");
        untrusting.put("bootstrap.servers", bootstrap());
        assertThat(refusal(untrusting))
                .as("a client that does not trust the broker's certificate")
                .isInstanceOf(SslAuthenticationException.class);
    }

    /**
     * Statements and the capture's database connections go over TLS only, each client checking the
     * server's certificate against the CA it was given (the broker's: above).
     */
    @Test
    void statementsAndTheDatabaseTakeTlsOnlyAndTheClientsCheckTheServer() throws Exception {
        assertThat(statements.send("SHOW MATERIALIZED TABLES").has("rows")).isTrue();
        assertThatThrownBy(
                        () ->
                                new Statements(baseUri("ddl"), TestCredentials.API_KEY)
                                        .send("SHOW MATERIALIZED TABLES"))
                .as("statements in the clear: no such port")
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(
                        () ->
                                new Statements(
                                                "https://" + address("ddl") + ":" + HTTPS_PORT,
                                                TestCredentials.API_KEY,
                                                Path.of(postgres.caCertificate()))
                                        .send("SHOW MATERIALIZED TABLES"))
                .as("a client whose CA did not sign ddl-service's certificate")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SSLHandshakeException");
        assertThatThrownBy(() -> postgres.connection("disable").rows("SELECT 1"))
                .as("a client in the clear")
                .hasMessageContaining("no encryption");
        // Debezium's replication connection (the capture's own JDBC connection comes and goes).
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                assertThat(
                                                postgres.connection()
                                                        .rows(
                                                                "SELECT count(*) FILTER (WHERE"
                                                                        + " s.ssl), count(*) FROM"
                                                                        + " pg_stat_ssl s JOIN"
                                                                        + " pg_stat_activity a ON"
                                                                        + " a.pid = s.pid WHERE"
                                                                        + " a.usename = 'mt' AND"
                                                                        + " a.backend_type ="
                                                                        + " 'walsender'"))
                                        .as("the capture's replication connections: over TLS, all")
                                        .singleElement()
                                        .satisfies(
                                                counts -> {
                                                    assertThat(counts.get(0))
                                                            .isEqualTo(counts.get(1));
                                                    assertThat(Integer.parseInt(counts.get(1)))
                                                            .isPositive();
                                                }));
    }

    /**
     * The object store and Flink take TLS alone: the store answers no plain HTTP, and a client that
     * does not trust its certificate gets nothing; Flink's REST port answers the operator and
     * refuses a client whose certificate it does not trust; its RPC port speaks TLS with the
     * cluster's own certificate.
     */
    @Test
    void theObjectStoreAndFlinkTakeTlsOnlyAndFlinksRestPortItsOwnClientsAlone() throws Exception {
        URI plainStore = URI.create("http://" + address("store") + ":" + S3_PORT + "/");
        assertThatThrownBy(() -> HTTP.send(get(plainStore), HttpResponse.BodyHandlers.discarding()))
                .as("the store in the clear: its port listens, and answers nothing")
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(ConnectException.class);
        URI store = URI.create(storeEndpoint() + "/");
        assertThatThrownBy(() -> HTTP.send(get(store), HttpResponse.BodyHandlers.discarding()))
                .as("a client that does not trust the store's certificate")
                .isInstanceOf(SSLHandshakeException.class);

        assertThat(flink("/overview").path("taskmanagers").asInt())
                .as("the operator reads Flink's REST API")
                .isEqualTo(2);
        HttpClient stranger = HttpClient.newBuilder().sslContext(tls.stranger()).build();
        URI overview =
                URI.create(
                        "https://"
                                + address("flink-jm")
                                + ":"
                                + HostedFlinkProcess.REST_PORT
                                + "/overview");
        assertThatThrownBy(() -> stranger.send(get(overview), HttpResponse.BodyHandlers.ofString()))
                .as("a client whose certificate Flink's REST port does not trust")
                .isInstanceOf(IOException.class);

        try (SSLSocket rpc =
                (SSLSocket)
                        tls.clusterMember()
                                .getSocketFactory()
                                .createSocket(address("flink-jm"), HostedFlinkProcess.RPC_PORT)) {
            rpc.setSoTimeout(10_000);
            rpc.startHandshake();
            assertThat(rpc.getSession().getPeerCertificates())
                    .as("the RPC port's TLS, with the cluster's own certificate")
                    .isNotEmpty();
        }
    }

    private static HttpRequest get(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
    }

    /** Why the broker refused an admin client with {@code settings}; null when it did not. */
    private static Throwable refusal(Map<String, Object> settings) throws Exception {
        try (Admin admin = Admin.create(settings)) {
            admin.listTopics().names().get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    // ---- the components ----

    /**
     * What an operator does before the services start on a secured broker: the system's topics, and
     * the ACLs of every principal, made as the broker's admin.
     */
    private static void createTopicsAndAcls() throws Exception {
        Map<String, Object> settings = new HashMap<>(kafkaSecurity(KAFKA_ADMIN));
        settings.put("bootstrap.servers", bootstrap());
        try (Admin admin = Admin.create(settings)) {
            TopicCreator.ensure(admin, 3, (short) 1);
            admin.createAcls(KafkaAcls.all()).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Sends one record as {@code principal}: null when the broker took it, else why it refused. */
    private static Throwable produce(String principal, String topic) throws Exception {
        Map<String, Object> settings = new HashMap<>(kafkaSecurity(principal));
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "probe", "{}")).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TopicAuthorizationException e) {
            return e; // refused while fetching the topic's metadata
        }
    }

    private static Map<String, String> kafkaPasswords() {
        Map<String, String> passwords = new LinkedHashMap<>();
        passwords.put(KAFKA_ADMIN, UUID.randomUUID().toString());
        KafkaPrincipals.ALL.forEach(
                principal -> passwords.put(principal.name(), UUID.randomUUID().toString()));
        return passwords;
    }

    /**
     * How {@code principal} connects to the secured broker, as a Kafka client's settings: over TLS,
     * trusting the broker's certificate (given inline, so no process needs another's file), with
     * its password.
     */
    private static Map<String, String> kafkaSecurity(String principal) {
        return Map.of(
                "security.protocol",
                "SASL_SSL",
                "ssl.truststore.type",
                "PEM",
                "ssl.truststore.certificates",
                brokerCertificate(),
                "sasl.mechanism",
                "SCRAM-SHA-512",
                "sasl.jaas.config",
                jaas(principal, KAFKA_PASSWORDS.get(principal)));
    }

    /** The certificate bin/kafka made for the broker's address, in PEM. */
    private static String brokerCertificate() {
        try {
            return Files.readString(home("kafka").resolve("tls/broker.pem"));
        } catch (IOException e) {
            throw new IllegalStateException("the broker's certificate is not there yet", e);
        }
    }

    private static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user
                + "\" password=\""
                + password
                + "\";";
    }

    private static String bootstrap() {
        return address("kafka") + ":" + KAFKA_PORT;
    }

    private static void startFlink() throws Exception {
        // Flink's S3 file system: the store's endpoint in its settings, its keys where the AWS
        // SDK's default chain finds them (as k8s/ gives them from a Secret); quick heartbeats so a
        // lost TaskManager is noticed in seconds.
        Map<String, String> settings =
                new HashMap<>(
                        Map.of(
                                "s3.endpoint",
                                storeEndpoint(),
                                "s3.path.style.access",
                                "true",
                                "heartbeat.interval",
                                "1000",
                                "heartbeat.timeout",
                                "6000"));
        settings.putAll(tls.clusterSettings());
        List<String> javaOptions = tls.storeClientProperties().stream().map(p -> "-D" + p).toList();
        Map<String, String> keys =
                Map.of("AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        jobManager =
                HostedFlinkProcess.jobManager(
                        network.host("flink-jm"), home("flink-jm"), settings, keys, javaOptions);
        stops.add(0, jobManager::close);
        for (String name : List.of("flink-tm1", "flink-tm2")) {
            HostedFlinkProcess taskManager =
                    HostedFlinkProcess.taskManager(
                            network.host(name),
                            network.host("flink-jm"),
                            2,
                            home(name),
                            settings,
                            keys,
                            javaOptions);
            taskManagers.add(taskManager);
            stops.add(0, taskManager::close);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(jobManager.alive())
                                    .as("the JobManager runs; see " + home("flink-jm"))
                                    .isTrue();
                            return flink("/overview").path("taskmanagers").asInt() == 2;
                        });
        processes.put(
                "flink-jm",
                "Flink JobManager (pid "
                        + jobManager.pid()
                        + ") REST on "
                        + address("flink-jm")
                        + ":"
                        + HostedFlinkProcess.REST_PORT);
        for (HostedFlinkProcess taskManager : taskManagers) {
            processes.put(
                    taskManager.host().name(),
                    "Flink TaskManager, 2 slots (pid "
                            + taskManager.pid()
                            + ") on "
                            + taskManager.host().address());
        }
    }

    private static void startServices() throws IOException {
        String bootstrap = address("kafka") + ":" + KAFKA_PORT;
        // Statements over HTTPS alone, with a certificate for the ddl host's address.
        ddlCertificates = HostCertificates.issue(home("ddl").resolve("tls"), address("ddl"));
        Map<String, String> s3 =
                Map.of(
                        "MT_S3_ENDPOINT",
                        storeEndpoint(),
                        "MT_S3_PATH_STYLE_ACCESS",
                        "true",
                        "MT_S3_ACCESS_KEY",
                        ACCESS_KEY,
                        "MT_S3_SECRET_KEY",
                        SECRET_KEY);
        String slot = "mt_cdc_" + SCHEMA;
        List<ServiceProcess> services =
                List.of(
                        service(
                                        "cdc",
                                        "cdc-capture-service",
                                        "mt.cdc.tables=" + SCHEMA + "\\..*",
                                        "mt.cdc.slot-name=" + slot,
                                        "mt.cdc.publication=" + slot,
                                        "mt.cdc.database.sslmode=verify-full",
                                        "mt.cdc.database.sslrootcert=" + postgres.caCertificate())
                                .withEnvironment(
                                        Map.of(
                                                "MT_PG_HOST",
                                                postgres.address(),
                                                "MT_PG_PORT",
                                                String.valueOf(HostedPostgres.PORT))),
                        service(
                                        "ddl",
                                        "ddl-service",
                                        "mt.paimon.warehouse=" + STATE + "/warehouse",
                                        "quarkus.http.tls-configuration-name=https",
                                        "quarkus.tls.\"https\".key-store.pem.\"0\".cert="
                                                + ddlCertificates.certificate(),
                                        "quarkus.tls.\"https\".key-store.pem.\"0\".key="
                                                + ddlCertificates.key(),
                                        "quarkus.http.ssl-port=" + HTTPS_PORT,
                                        "quarkus.http.insecure-requests=disabled")
                                .withProperties(tls.storeClientProperties())
                                .withEnvironment(s3),
                        service("planner", "planner-service"),
                        service(
                                        "jobs",
                                        "job-manager-service",
                                        "mt.flink.target=remote",
                                        "mt.flink.rest-address="
                                                + address("flink-jm")
                                                + ":"
                                                + HostedFlinkProcess.REST_PORT,
                                        "mt.paimon.warehouse=" + STATE + "/warehouse",
                                        "mt.flink.checkpoint-dir=" + STATE + "/checkpoints",
                                        "mt.flink.savepoint-dir=" + STATE + "/savepoints")
                                .withProperties(tls.storeClientProperties())
                                .withProperties(tls.jobManagerServiceProperties())
                                .withEnvironment(s3),
                        service("scheduler", "refresh-scheduler-service"));
        stops.add(0, () -> ServiceProcess.stopTogether(services));
        ServiceProcess.startTogether(services);
        for (int i = 0; i < services.size(); i++) {
            ServiceProcess service = services.get(i);
            processes.put(
                    List.of("cdc", "ddl", "planner", "jobs", "scheduler").get(i),
                    service.module() + " (pid " + service.pid() + ") on " + service.baseUri());
        }
        statements =
                new Statements(
                        "https://" + address("ddl") + ":" + HTTPS_PORT,
                        TestCredentials.API_KEY,
                        Path.of(ddlCertificates.ca()));
    }

    /**
     * A service on its host, connecting to the broker as its own principal (named as the module):
     * the credentials in its environment, as k8s/ gives them from a Secret; the topics are the
     * operator's.
     */
    private static ServiceProcess service(String host, String module, String... properties) {
        List<String> settings = new ArrayList<>(List.of(properties));
        settings.add("mt.kafka.create-topics=false");
        Map<String, String> credentials = new HashMap<>();
        kafkaSecurity(module)
                .forEach(
                        (key, value) ->
                                credentials.put(
                                        "KAFKA_" + key.toUpperCase().replace('.', '_'), value));
        return new ServiceProcess(module, SERVICE_PORT, settings.toArray(String[]::new))
                .on(network.host(host), home(host), bootstrap())
                .withEnvironment(credentials);
    }

    /**
     * Starts one of our scripts (bin/objectstore, bin/kafka) inside its host; its stop is the same
     * script.
     */
    private static void startScript(String host, String script, Map<String, String> environment)
            throws IOException, InterruptedException {
        ProcessBuilder start =
                new ProcessBuilder(
                                network.host(host)
                                        .command(List.of(ROOT.resolve(script).toString(), "start")))
                        .redirectErrorStream(true);
        start.environment().putAll(environment);
        Process process = start.start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(
                    script + " start on " + address(host) + " failed:\n" + output);
        }
        stops.add(
                0,
                () -> {
                    try {
                        ProcessBuilder stop =
                                new ProcessBuilder(ROOT.resolve(script).toString(), "stop")
                                        .redirectErrorStream(true)
                                        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
                        stop.environment().putAll(environment);
                        stop.start().waitFor(60, TimeUnit.SECONDS);
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(
                                "stopping " + script + ": " + e.getMessage(), e);
                    }
                });
        processes.put(
                host,
                output.lines()
                        .filter(line -> line.contains("ready"))
                        .findFirst()
                        .orElse(script)
                        .strip());
    }

    // ---- what the test looks at ----

    private static Harness harness(long seed, Duration duration) {
        String bootstrap = address("kafka") + ":" + KAFKA_PORT;
        return new Harness(
                new Harness.Settings(
                        Example.named("users-domains"),
                        SCHEMA,
                        "cdc",
                        bootstrap,
                        seed,
                        duration,
                        50,
                        Duration.ofMinutes(3)),
                postgres.connection(),
                statements,
                System.out);
    }

    /** The table's streaming job, once every task of it runs. */
    private static String awaitRunningJob() {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(
                        () -> {
                            for (JsonNode job : flink("/jobs/overview").path("jobs")) {
                                if (job.path("name").asText().contains("user_domains")
                                        && job.path("state").asText().equals("RUNNING")
                                        && job.path("tasks").path("running").asInt()
                                                == job.path("tasks").path("total").asInt()) {
                                    return job.path("jid").asText();
                                }
                            }
                            return null;
                        },
                        Objects::nonNull);
    }

    /** The TaskManager that runs the job's first task, by the address Flink gives for it. */
    private static HostedFlinkProcess taskManagerRunning(String jobId) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(
                        () -> {
                            String vertex =
                                    flink("/jobs/" + jobId)
                                            .path("vertices")
                                            .path(0)
                                            .path("id")
                                            .asText();
                            for (JsonNode taskManager :
                                    flink(
                                                    "/jobs/"
                                                            + jobId
                                                            + "/vertices/"
                                                            + vertex
                                                            + "/taskmanagers")
                                            .path("taskmanagers")) {
                                if (taskManager.path("status").asText().equals("RUNNING")) {
                                    String endpoint = taskManager.path("endpoint").asText();
                                    return taskManagers.stream()
                                            .filter(
                                                    candidate ->
                                                            candidate.alive()
                                                                    && endpoint.startsWith(
                                                                            candidate
                                                                                            .host()
                                                                                            .address()
                                                                                    + ":"))
                                            .findFirst()
                                            .orElse(null);
                                }
                            }
                            return null;
                        },
                        Objects::nonNull);
    }

    private static JsonNode event(TopicProbe events, String type) throws IOException {
        String table = "default_catalog." + TABLE;
        return JSON.readTree(
                events.await(
                                r ->
                                        table.equals(r.key())
                                                && type.equals(
                                                        TopicProbe.header(r, EventHeaders.TYPE)),
                                Duration.ofSeconds(120))
                        .value());
    }

    /**
     * Files in the processes' own directories that only table data or state would be: Paimon's and
     * Flink's.
     */
    private static List<Path> localTableDataOrState() throws IOException {
        try (Stream<Path> files = Files.walk(HOMES)) {
            return files.filter(Files::isRegularFile)
                    .filter(
                            file -> {
                                String name = file.getFileName().toString();
                                return name.equals("_metadata")
                                        || name.startsWith("snapshot-")
                                        || name.startsWith("manifest-")
                                        || name.endsWith(".parquet")
                                        || name.endsWith(".orc");
                            })
                    .toList();
        }
    }

    private static String storeEndpoint() {
        return "https://" + address("store") + ":" + S3_PORT;
    }

    /** Reads Flink's REST API as the operator (mutual TLS). */
    private static JsonNode flink(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                flinkClient.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "https://"
                                                        + address("flink-jm")
                                                        + ":"
                                                        + HostedFlinkProcess.REST_PORT
                                                        + path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    private static String address(String host) {
        return network.host(host).address();
    }

    private static String baseUri(String host) {
        return "http://" + address(host) + ":" + SERVICE_PORT;
    }

    private static Path home(String host) {
        return HOMES.resolve(host);
    }

    private static void close(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            throw new IllegalStateException("stopping: " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
