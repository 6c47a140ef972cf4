package io.mtables.system;

import io.mtables.testing.tls.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * The keys and certificates of the distributed test's Flink cluster and object store, and of their
 * clients, as an operator issues them (docs/security.md, "Flink" and "HTTPS"):
 *
 * <ul>
 *   <li>Flink's REST port: HTTPS with mutual authentication (a certificate for the JobManager's
 *       address; it trusts job-manager-service's and the operator's certificates alone);
 *   <li>Flink's internal connections (RPC, blobs, data between TaskManagers): TLS with one key
 *       every process of the cluster holds, valid for each of their addresses;
 *   <li>the object store: its own certificate (bin/objectstore with {@code MT_S3_TLS=true}), which
 *       every JVM that reads or writes the store trusts through a trust store of it.
 * </ul>
 */
final class HostsTls {

    private final Path restKey;
    private final Path restTrusts;
    private final Path internalKey;
    private final Path internalTrusts;
    private final Path jobManagerKey;
    private final Path restClientsTrust;
    private final Path operatorKey;
    private final Path storeTrusts;

    private HostsTls(Path dir, String restAddress, List<String> clusterAddresses, Path store) {
        restKey = TestCertificates.keyStore(dir, "flink-rest", List.of(restAddress));
        internalKey = TestCertificates.keyStore(dir, "flink-internal", clusterAddresses);
        internalTrusts = TestCertificates.trustStore(dir, "flink-internal-trusts", internalKey);
        jobManagerKey = TestCertificates.keyStore(dir, "job-manager-service");
        operatorKey = TestCertificates.keyStore(dir, "operator");
        TestCertificates.keyStore(dir, "stranger"); // a client the cluster does not trust
        restTrusts =
                TestCertificates.trustStore(dir, "flink-rest-trusts", jobManagerKey, operatorKey);
        restClientsTrust = TestCertificates.trustStore(dir, "flink-rest-clients-trust", restKey);
        storeTrusts = TestCertificates.trustStoreOfCertificates(dir, "store-trusts", store);
    }

    /**
     * Issues them into {@code dir}.
     *
     * @param restAddress the JobManager's address, where its REST port listens
     * @param clusterAddresses every Flink process's address
     * @param storeCertificate the object store's certificate (PEM)
     */
    static HostsTls issue(
            Path dir, String restAddress, List<String> clusterAddresses, Path storeCertificate)
            throws IOException {
        Files.createDirectories(dir);
        return new HostsTls(dir, restAddress, clusterAddresses, storeCertificate);
    }

    /** Flink's settings on every process of the cluster. */
    Map<String, String> clusterSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.ssl.rest.enabled", "true");
        settings.put("security.ssl.rest.authentication-enabled", "true");
        stores(settings, "security.ssl.rest.", restKey, restTrusts);
        settings.put("security.ssl.internal.enabled", "true");
        stores(settings, "security.ssl.internal.", internalKey, internalTrusts);
        return settings;
    }

    private static void stores(Map<String, String> settings, String prefix, Path key, Path trusts) {
        settings.put(prefix + "keystore", key.toString());
        settings.put(prefix + "keystore-password", TestCertificates.PASSWORD);
        settings.put(prefix + "key-password", TestCertificates.PASSWORD);
        settings.put(prefix + "truststore", trusts.toString());
        settings.put(prefix + "truststore-password", TestCertificates.PASSWORD);
    }

    /** job-manager-service's side of the REST port's mutual TLS ({@code mt.flink.rest-tls.*}). */
    List<String> jobManagerServiceProperties() {
        return List.of(
                "mt.flink.rest-tls.enabled=true",
                "mt.flink.rest-tls.truststore=" + restClientsTrust,
                "mt.flink.rest-tls.truststore-password=" + TestCertificates.PASSWORD,
                "mt.flink.rest-tls.keystore=" + jobManagerKey,
                "mt.flink.rest-tls.keystore-password=" + TestCertificates.PASSWORD);
    }

    /**
     * The system properties of a JVM that reads or writes the object store: its trust store is the
     * store's certificate (the S3 clients of Paimon and Flink use the JVM's).
     */
    List<String> storeClientProperties() {
        return List.of(
                "javax.net.ssl.trustStore=" + storeTrusts,
                "javax.net.ssl.trustStorePassword=" + TestCertificates.PASSWORD,
                "javax.net.ssl.trustStoreType=PKCS12");
    }

    /** The operator's client of Flink's REST port (the test reads the cluster's state so). */
    SSLContext operator() {
        return TestCertificates.sslContext(operatorKey, restClientsTrust);
    }

    /** A process of the cluster, as its internal connections present themselves. */
    SSLContext clusterMember() {
        return TestCertificates.sslContext(internalKey, internalTrusts);
    }

    /** A client the cluster does not trust, which trusts the cluster. */
    SSLContext stranger() {
        return TestCertificates.sslContext(
                restKey.resolveSibling("stranger.p12"), restClientsTrust);
    }
}
