package io.mtables.ddl.api;

import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.messaging.EventReader;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the capture's latest report of each table's snapshot ({@code mt.capture.status}) for the
 * initial load of the tables that read them. Its own consumer group reads the compacted topic from
 * the start, so a restarted instance has the latest.
 */
@ApplicationScoped
public class CaptureStatusConsumer {

    static final List<Contract<?>> STATUS = List.of(Contracts.CAPTURE_SNAPSHOT_V1);

    private final EventReader reader;
    private final CaptureSnapshotProjection captures;

    public CaptureStatusConsumer(EventReader reader, CaptureSnapshotProjection captures) {
        this.reader = reader;
        this.captures = captures;
    }

    @Incoming("capture-status")
    public void onStatus(ConsumerRecord<String, String> record) {
        captures.apply(reader.read(record, STATUS).payloadAs(Contracts.CAPTURE_SNAPSHOT_V1));
    }
}
