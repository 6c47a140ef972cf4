package io.mtables.refreshscheduler.infra;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions of {@code mt.refresh.plans} this instance's consumer is given are the tables it
 * schedules: on assignment their plans are read again from the start (the topic is compacted: the
 * latest plan of every table), on revocation or loss they stop ticking here.
 */
@ApplicationScoped
@Identifier("plans-ownership")
public class PlansOwnership implements KafkaConsumerRebalanceListener {

    private final SchedulerRuntime runtime;

    public PlansOwnership(SchedulerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void onPartitionsAssigned(
            Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        runtime.assigned(partitions);
        consumer.seekToBeginning(partitions);
    }

    @Override
    public void onPartitionsRevoked(
            Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        runtime.revoked(partitions);
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        runtime.revoked(partitions);
    }
}
