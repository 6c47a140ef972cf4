package io.mtables.cdc.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.cdc.CdcConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture's connection to the machine's PostgreSQL with {@code sslmode=verify-full}: it goes
 * through with the CA that signed the server's certificate (bin/postgres), and with any other CA
 * the service does not start, saying why.
 */
class DatabasePreparationTlsIT {

    private static final String CA =
            System.getenv()
                    .getOrDefault(
                            "MT_TEST_PG_SSLROOTCERT", "/etc/postgresql/15/main/mtables-tls/ca.crt");

    @BeforeAll
    static void registerTheDriver() throws ClassNotFoundException {
        // A Quarkus test before this one registered it from its own class loader, which
        // DriverManager does not offer to this class.
        Class.forName("org.postgresql.Driver");
    }

    @Test
    void withTheCaThatSignedTheServersCertificateTheConnectionGoesThrough() {
        assertThat(DatabasePreparation.prepare(config(Map.of("mt.cdc.database.sslrootcert", CA))))
                .as("no table matches, but the connection was made")
                .isEmpty();
    }

    @Test
    void withAnotherCaTheCaptureDoesNotStartAndSaysWhy(@TempDir Path dir) throws Exception {
        Path other = selfSignedCertificate(dir);
        assertThatThrownBy(
                        () ->
                                DatabasePreparation.prepare(
                                        config(
                                                Map.of(
                                                        "mt.cdc.database.sslrootcert",
                                                        other.toString()))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(
                        "cannot prepare jdbc:postgresql://127.0.0.1:5432/mt (sslmode=verify-full)")
                .hasMessageContaining("SSL error")
                .hasMessageContaining("PKIX path");
    }

    @Test
    void verifyFullWithoutACaIsRefusedBeforeAnyConnection() {
        assertThatThrownBy(() -> DatabasePreparation.prepare(config(Map.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mt.cdc.database.sslmode=verify-full")
                .hasMessageContaining("set mt.cdc.database.sslrootcert");
    }

    /** Tables no one has: the preparation connects, finds nothing to alter and returns. */
    private static CdcConfig config(Map<String, String> tls) {
        Map<String, String> properties = new HashMap<>(tls);
        properties.put("mt.cdc.database.sslmode", "verify-full");
        properties.put("mt.cdc.tables", "no_such_schema_here\\..*");
        return new SmallRyeConfigBuilder()
                .withMapping(CdcConfig.class)
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build()
                .getConfigMapping(CdcConfig.class);
    }

    /** A CA certificate (PEM) of a key of its own, made by the JDK's keytool. */
    private static Path selfSignedCertificate(Path dir) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Path store = dir.resolve("other.p12");
        Path certificate = dir.resolve("other-ca.crt");
        run(
                keytool,
                "-genkeypair",
                "-alias",
                "other",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=another CA",
                "-validity",
                "2",
                "-ext",
                "bc:c",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit");
        run(
                keytool,
                "-exportcert",
                "-rfc",
                "-alias",
                "other",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-file",
                certificate.toString());
        assertThat(Files.readString(certificate)).startsWith("-----BEGIN CERTIFICATE-----");
        return certificate;
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ": " + output).isZero();
    }
}
