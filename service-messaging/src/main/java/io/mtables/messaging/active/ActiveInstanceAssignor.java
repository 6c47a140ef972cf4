package io.mtables.messaging.active;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;

/**
 * A partition assignor that gives every partition of the group's topics to the members of one
 * instance (one process: a service's channels are one consumer each) and none to the others: the
 * instance already active keeps the role; with none active, the longest running one takes it. Each
 * member's assignment names the chosen instance, which is how an instance learns its role. Set as
 * {@code partition.assignment.strategy} of every consumer of a service that must have one writer
 * (ddl-service's commands, planner-service, the job manager).
 *
 * <p>Kafka creates it by its name and configures it with the consumer's settings: {@code group.id},
 * and {@code mt.active-instance.id} where several instances share a JVM (tests).
 */
public class ActiveInstanceAssignor implements ConsumerPartitionAssignor, Configurable {

    /** The strategy's name in the group protocol; every member of a group must offer it. */
    public static final String NAME = "mt-active-instance";

    /** Optional consumer setting naming the instance (tests); else the process is the instance. */
    public static final String INSTANCE_ID_CONFIG = "mt.active-instance.id";

    private ActiveInstance instance;

    @Override
    public void configure(Map<String, ?> configs) {
        Object group = configs.get(ConsumerConfig.GROUP_ID_CONFIG);
        if (group == null) {
            throw new IllegalArgumentException(NAME + " needs the consumer's group.id");
        }
        Object id = configs.get(INSTANCE_ID_CONFIG);
        instance =
                id == null
                        ? ActiveInstance.of(group.toString())
                        : ActiveInstance.of(group.toString(), id.toString());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        return ByteBuffer.wrap(instance.claim().encode().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> members = groupSubscription.groupSubscription();
        Map<String, ActiveInstance.Claim> claims = new HashMap<>();
        members.forEach(
                (member, subscription) ->
                        claimOf(subscription).ifPresent(claim -> claims.put(member, claim)));
        String chosen = chooseInstance(claims.values()).orElse("");
        // Every member is told which instance is active, whether or not it got partitions (a topic
        // not created yet has none), so that an instance knows its role from the group alone.
        ByteBuffer decision = ByteBuffer.wrap(chosen.getBytes(StandardCharsets.UTF_8));
        Map<String, Assignment> assignments = new HashMap<>();
        Map<String, List<String>> chosenMembersByTopic = new HashMap<>();
        members.keySet().stream()
                .sorted()
                .forEach(
                        member -> {
                            assignments.put(
                                    member,
                                    new Assignment(new ArrayList<>(), decision.duplicate()));
                            ActiveInstance.Claim claim = claims.get(member);
                            if (claim != null && claim.instanceId().equals(chosen)) {
                                for (String topic : members.get(member).topics()) {
                                    chosenMembersByTopic
                                            .computeIfAbsent(topic, t -> new ArrayList<>())
                                            .add(member);
                                }
                            }
                        });
        // One consumer per topic in an instance is the rule; if there are more, they share it.
        chosenMembersByTopic.forEach(
                (topic, consumers) -> {
                    List<Integer> partitions =
                            metadata.partitionsForTopic(topic).stream()
                                    .map(p -> p.partition())
                                    .sorted()
                                    .toList();
                    for (int i = 0; i < partitions.size(); i++) {
                        assignments
                                .get(consumers.get(i % consumers.size()))
                                .partitions()
                                .add(new TopicPartition(topic, partitions.get(i)));
                    }
                });
        return new GroupAssignment(assignments);
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        instance.assigned(text(assignment.userData()), metadata.generationId());
    }

    /**
     * The instance that keeps or takes the role: the one made active most recently (the others that
     * still claim it were cut off and replaced), else the longest running; ties by id.
     */
    static Optional<String> chooseInstance(Iterable<ActiveInstance.Claim> claims) {
        List<ActiveInstance.Claim> all = new ArrayList<>();
        claims.forEach(all::add);
        Comparator<ActiveInstance.Claim> byRole =
                Comparator.comparingInt(ActiveInstance.Claim::activeGeneration)
                        .reversed()
                        .thenComparingLong(ActiveInstance.Claim::startedAt)
                        .thenComparing(ActiveInstance.Claim::instanceId);
        return all.stream().min(byRole).map(ActiveInstance.Claim::instanceId);
    }

    /** A member that says nothing readable is never chosen. */
    private static Optional<ActiveInstance.Claim> claimOf(Subscription subscription) {
        return ActiveInstance.Claim.decode(text(subscription.userData()));
    }

    private static String text(ByteBuffer data) {
        if (data == null) {
            return "";
        }
        byte[] bytes = new byte[data.remaining()];
        data.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
