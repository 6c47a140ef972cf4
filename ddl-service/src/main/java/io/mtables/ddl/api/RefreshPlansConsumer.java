package io.mtables.ddl.api;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.messaging.EventReader;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the plan of every table for DESCRIBE and information_schema. Its own consumer group reads
 * the compacted plans topic from the start, so a restarted ddl-service sees every plan again.
 */
@ApplicationScoped
public class RefreshPlansConsumer {

    static final List<Contract<?>> PLANS = List.of(Contracts.REFRESH_PLANNED_V1);

    private final EventReader reader;
    private final PlanProjection plans;

    public RefreshPlansConsumer(EventReader reader, PlanProjection plans) {
        this.reader = reader;
        this.plans = plans;
    }

    @Incoming("refresh-plans")
    public void onPlan(ConsumerRecord<String, String> record) {
        plans.apply(reader.read(record, PLANS).payloadAs(Contracts.REFRESH_PLANNED_V1));
    }
}
