package io.mtables.ddl.api;

import io.mtables.ddl.domain.ClusterStatusProjection;
import io.mtables.messaging.EventReader;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the job manager's latest report of the cluster for {@code GET /api/v1/cluster}. Its own
 * consumer group reads the compacted topic from the start, so a restarted instance has the latest.
 */
@ApplicationScoped
public class ClusterStatusConsumer {

    static final List<Contract<?>> STATUS = List.of(Contracts.CLUSTER_STATUS_V1);

    private final EventReader reader;
    private final ClusterStatusProjection cluster;

    public ClusterStatusConsumer(EventReader reader, ClusterStatusProjection cluster) {
        this.reader = reader;
        this.cluster = cluster;
    }

    @Incoming("cluster-status")
    public void onStatus(ConsumerRecord<String, String> record) {
        cluster.apply(reader.read(record, STATUS).payloadAs(Contracts.CLUSTER_STATUS_V1));
    }
}
