package io.mtables.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.jobmanager.flink.FlinkRestTls;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.tls.TestCertificates;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The pipelines, run on a remote Flink session cluster (a separate JVM the job manager did not
 * start), reached over HTTPS with the job manager's certificate: a streaming job, SUSPEND and
 * RESUME, a new freshness, FULL refreshes and the cluster's log; and its REST port refusing every
 * other client. The tests of what the job manager decides whatever the cluster (ticks coalesced,
 * failures counted, chains, changed partitions) run in {@link PipelinesIT}; DistributedIT and
 * CapacityOnSessionClusterIT run remote clusters of separate processes.
 */
@QuarkusTest
@TestProfile(PipelinesOnRemoteFlinkIT.RemoteFlink.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PipelinesOnRemoteFlinkIT extends PipelinesIT {

    /** Restricts the remote cluster resource to this test class. */
    public static class RemoteFlink implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(RemoteFlinkTestResource.class));
        }
    }

    private static final String NOT_ABOUT_THE_TARGET =
            "the same on any cluster: PipelinesIT runs it";

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void ticksDuringARefreshAreCoalescedIntoOne() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void fiveFailedRefreshesInARowSuspendTheTable() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aChainOfThreeReadsEachUpstreamAsItIsWritten() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aRefreshOverwritesOnlyThePartitionsWhoseInputsChangedAndEmptiesOnesLeftWithoutRows() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aCompatibleChangeGoesOnFromTheOldStateBesideTheTableWithTheWrittenRowsRewritten() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aRestoreFlinkRefusesFallsBackToASwitchOver() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aTableReadingASwitchedOverTableIsRebuiltFromTheNewRows() {}

    @Override
    boolean embeddedCluster() {
        return false;
    }

    @Override
    int flinkPort() {
        return RemoteFlinkTestResource.PORT;
    }

    @Override
    Path clusterLog() {
        return RemoteFlinkTestResource.HOME.resolve("cluster.log");
    }

    /** The job manager's own client of the cluster: one for the class, as the service has one. */
    private HttpClient jobManagerClient;

    @Override
    HttpResponse<String> flinkRest(String path) throws IOException, InterruptedException {
        if (jobManagerClient == null) {
            jobManagerClient =
                    HttpClient.newBuilder()
                            .sslContext(RemoteFlinkTestResource.jobManagerTls().sslContext())
                            .build();
        }
        return jobManagerClient.send(get(path), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The cluster's REST port (which runs whatever job graph it is sent) answers the job manager
     * alone: plain HTTP gets only a redirect to HTTPS, and a client without a certificate, or with
     * one the cluster does not trust, is refused in the handshake. The job manager's own work on it
     * over HTTPS is every other test of this class.
     */
    @Test
    void theClustersRestPortTakesNoClientButTheJobManager() throws Exception {
        String path = "/jobs/overview";
        assertThat(flinkRest(path).statusCode()).as("the job manager's certificate").isEqualTo(200);

        // Flink answers plain HTTP on that port with nothing but a redirect to HTTPS.
        HttpResponse<String> plain =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:" + flinkPort() + path))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).as("plain HTTP").isBetween(300, 399);
        assertThat(plain.headers().firstValue("location"))
                .hasValueSatisfying(location -> assertThat(location).startsWith("https://"));
        assertThat(plain.body()).as("plain HTTP's answer").doesNotContain("\"jobs\"");

        FlinkRestTls jobManager = RemoteFlinkTestResource.jobManagerTls();
        FlinkRestTls noCertificate =
                new FlinkRestTls(
                        jobManager.truststore(),
                        jobManager.truststorePassword(),
                        Optional.empty(),
                        "");
        FlinkRestTls stranger =
                new FlinkRestTls(
                        jobManager.truststore(),
                        jobManager.truststorePassword(),
                        Optional.of(RemoteFlinkTestResource.TLS.resolve("stranger.p12")),
                        TestCertificates.PASSWORD);
        for (FlinkRestTls client : List.of(noCertificate, stranger)) {
            HttpClient https = HttpClient.newBuilder().sslContext(client.sslContext()).build();
            assertThatThrownBy(() -> https.send(get(path), HttpResponse.BodyHandlers.ofString()))
                    .as(
                            "HTTPS with %s",
                            client.keystore().map(Path::toString).orElse("no certificate"))
                    .isInstanceOf(IOException.class);
        }
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + flinkPort() + path))
                .timeout(Duration.ofSeconds(10))
                .build();
    }
}
