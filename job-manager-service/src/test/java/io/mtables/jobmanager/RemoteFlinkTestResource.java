package io.mtables.jobmanager;

import io.mtables.flinkcluster.FlinkProperties;
import io.mtables.flinkcluster.LocalFlinkCluster;
import io.mtables.jobmanager.flink.FlinkRestTls;
import io.mtables.testing.tls.TestCertificates;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A Flink cluster in a JVM of its own that the job manager did not start: the remote target. It
 * runs {@link LocalFlinkCluster} with the test class path, so it has the connectors and Paimon, as
 * a session cluster prepared for our jobs would. Its REST port speaks HTTPS and takes only clients
 * with the job manager's certificate (Flink's {@code security.ssl.rest.*}, mutual authentication),
 * as docs/security.md says a remote cluster should.
 */
public class RemoteFlinkTestResource implements QuarkusTestResourceLifecycleManager {

    static final int PORT = 18285;
    static final Path HOME = Path.of("target/remote-flink").toAbsolutePath();

    /** The keys and certificates: made fresh at each start. */
    static final Path TLS = HOME.resolve("tls");

    private Process cluster;

    /** The job manager's side of the TLS: the cluster's certificate trusted, its own presented. */
    static FlinkRestTls jobManagerTls() {
        return FlinkRestTls.of(
                Optional.of(TLS.resolve("job-manager-trusts.p12").toString()),
                Optional.of(TestCertificates.PASSWORD),
                Optional.of(TLS.resolve("job-manager.p12").toString()),
                Optional.of(TestCertificates.PASSWORD));
    }

    /** The cluster's REST settings: HTTPS with its key, and only the job manager's key let in. */
    private static Map<String, String> restTls() {
        Path cluster = TestCertificates.keyStore(TLS, "flink");
        Path jobManager = TestCertificates.keyStore(TLS, "job-manager");
        TestCertificates.keyStore(TLS, "stranger"); // a client the cluster does not trust
        TestCertificates.trustStore(TLS, "job-manager-trusts", cluster);
        Path clusterTrusts = TestCertificates.trustStore(TLS, "flink-trusts", jobManager);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.ssl.rest.enabled", "true");
        settings.put("security.ssl.rest.authentication-enabled", "true");
        settings.put("security.ssl.rest.keystore", cluster.toString());
        settings.put("security.ssl.rest.keystore-type", "PKCS12");
        settings.put("security.ssl.rest.keystore-password", TestCertificates.PASSWORD);
        settings.put("security.ssl.rest.key-password", TestCertificates.PASSWORD);
        settings.put("security.ssl.rest.truststore", clusterTrusts.toString());
        settings.put("security.ssl.rest.truststore-type", "PKCS12");
        settings.put("security.ssl.rest.truststore-password", TestCertificates.PASSWORD);
        return settings;
    }

    @Override
    public Map<String, String> start() {
        try {
            Path home = HOME;
            deleteTree(TLS);
            Files.createDirectories(TLS);
            ProcessBuilder process =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx1g",
                                    "-XX:TieredStopAtLevel=1", // a short life: the quick compiler
                                    "-XX:ReservedCodeCacheSize=240m", // C1 alone reserves only 48
                                    // MB
                                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    LocalFlinkCluster.class.getName(),
                                    String.valueOf(PORT),
                                    home.toString(),
                                    "10")
                            .redirectErrorStream(true)
                            .redirectOutput(home.resolve("cluster.log").toFile());
            process.environment()
                    .put(FlinkProperties.ENVIRONMENT_VARIABLE, FlinkProperties.format(restTls()));
            cluster = process.start();
            HttpClient http =
                    HttpClient.newBuilder().sslContext(jobManagerTls().sslContext()).build();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .failFast(
                            "the remote Flink cluster of the tests exited; see "
                                    + home.resolve("cluster.log"),
                            () -> !cluster.isAlive())
                    .until(
                            () -> {
                                var overview =
                                        http.send(
                                                HttpRequest.newBuilder(
                                                                URI.create(
                                                                        "https://127.0.0.1:"
                                                                                + PORT
                                                                                + "/overview"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString());
                                return overview.statusCode() == 200
                                        && !overview.body().contains("\"taskmanagers\":0");
                            });
            FlinkRestTls tls = jobManagerTls();
            return Map.of(
                    "mt.flink.target",
                    "remote",
                    "mt.flink.rest-address",
                    "127.0.0.1:" + PORT,
                    "mt.flink.rest-tls.enabled",
                    "true",
                    "mt.flink.rest-tls.truststore",
                    tls.truststore().toString(),
                    "mt.flink.rest-tls.truststore-password",
                    tls.truststorePassword(),
                    "mt.flink.rest-tls.keystore",
                    tls.keystore().orElseThrow().toString(),
                    "mt.flink.rest-tls.keystore-password",
                    tls.keystorePassword());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the remote Flink cluster of the tests: " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.destroyForcibly();
            cluster.onExit().join();
        }
    }
}
