package io.mtables.jobmanager.infra;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.flink.EmbeddedFlinkTarget;
import io.mtables.jobmanager.flink.EmbeddedSizing;
import io.mtables.jobmanager.flink.FlinkRestTls;
import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.jobmanager.flink.RemoteFlinkTarget;
import io.mtables.jobmanager.jobs.Locations;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/** The Flink cluster the configuration names: the embedded one or a remote session cluster. */
final class FlinkTargets {

    private static final Logger LOG = Logger.getLogger(FlinkTargets.class);

    private FlinkTargets() {}

    static FlinkTarget of(JobManagerConfig config, Locations locations) {
        var flink = config.flink();
        return switch (flink.target()) {
            case "embedded" -> {
                var embedded = flink.embedded();
                var size =
                        EmbeddedSizing.of(
                                embedded.taskSlots(),
                                embedded.heap(),
                                EmbeddedSizing.physicalMemory());
                LOG.infof(
                        "embedded Flink cluster: %d task slots, %s heap",
                        size.taskSlots(), size.heap());
                // The object store's endpoint and keys are the same keys for Flink's S3 file system
                // as for Paimon's.
                yield new EmbeddedFlinkTarget(
                        embedded.port(),
                        locations.dataDir(),
                        size.taskSlots(),
                        size.heap(),
                        embedded.jvmOptions().orElse(List.of()),
                        locations.warehouse().fileSystemOptions());
            }
            case "remote" ->
                    RemoteFlinkTarget.at(
                            flink.restAddress()
                                    .orElseThrow(
                                            () ->
                                                    new IllegalArgumentException(
                                                            "mt.flink.target=remote needs"
                                                                    + " mt.flink.rest-address"
                                                                    + " (host:port)")),
                            flink.pipelineJars().orElse(List.of()),
                            restTls(flink.restTls()));
            default ->
                    throw new IllegalArgumentException(
                            "mt.flink.target must be embedded or remote; was '"
                                    + flink.target()
                                    + "'");
        };
    }

    private static Optional<FlinkRestTls> restTls(JobManagerConfig.RestTls tls) {
        if (!tls.enabled()) {
            return Optional.empty();
        }
        return Optional.of(
                FlinkRestTls.of(
                        tls.truststore(),
                        tls.truststorePassword(),
                        tls.keystore(),
                        tls.keystorePassword()));
    }
}
