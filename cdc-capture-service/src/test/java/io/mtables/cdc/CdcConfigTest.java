package io.mtables.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table list keeps its regular expressions as written, backslashes included. */
class CdcConfigTest {

    @Test
    void theDefaultTableListMatchesOnlyTheTablesOfSchemaPublic() throws Exception {
        SmallRyeConfig config =
                builder()
                        .withSources(
                                new PropertiesConfigSource(
                                        getClass()
                                                .getClassLoader()
                                                .getResource("application.properties")))
                        .build();
        assertThat(config.getConfigMapping(CdcConfig.class).tables()).isEqualTo("public\\..*");
    }

    @Test
    void aListFromTheEnvironmentIsSplitAtItsCommasAndKeepsItsBackslashes() {
        SmallRyeConfig config =
                builder()
                        .withDefaultValue("mt.cdc.database.password", "x")
                        .withSources(
                                new PropertiesConfigSource(
                                        Map.of(
                                                "mt.cdc.tables",
                                                " demo\\..* , shop.orders,",
                                                "mt.cdc.database.host",
                                                "h"),
                                        "test",
                                        500))
                        .build();
        assertThat(CdcConfig.includeList(config.getConfigMapping(CdcConfig.class).tables()))
                .isEqualTo(List.of("demo\\..*", "shop.orders"));
    }

    @Test
    void tlsIsLibpqsSslmodeForBothConnectionsPreferUnlessSaid() {
        CdcConfig byDefault =
                builder()
                        .withDefaultValue("mt.cdc.tables", "demo\\..*")
                        .build()
                        .getConfigMapping(CdcConfig.class);
        assertThat(byDefault.database().tls()).isEqualTo(Map.of("sslmode", "prefer"));
        CdcConfig checked =
                builder()
                        .withDefaultValue("mt.cdc.tables", "demo\\..*")
                        .withSources(
                                new PropertiesConfigSource(
                                        Map.of(
                                                "mt.cdc.database.sslmode",
                                                "verify-ca",
                                                "mt.cdc.database.sslrootcert",
                                                "/etc/ca.crt"),
                                        "test",
                                        500))
                        .build()
                        .getConfigMapping(CdcConfig.class);
        assertThat(checked.database().tls())
                .isEqualTo(Map.of("sslmode", "verify-ca", "sslrootcert", "/etc/ca.crt"));
    }

    /** As Quarkus reads it: expressions resolved, durations such as {@code 1s}. */
    private static SmallRyeConfigBuilder builder() {
        return new SmallRyeConfigBuilder()
                .withMapping(CdcConfig.class)
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter());
    }
}
