package io.mtables.messaging.active;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.testing.kafka.KafkaBroker;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One instance of a group gets every partition, the others none; the active one keeps the role
 * against newer and older instances; when it leaves, another takes every partition.
 */
class ActiveInstanceAssignorIT {

    @Test
    void theActiveInstanceKeepsEveryPartitionAndAStandbyGetsNone() {
        GroupAssignmentView view =
                assign(
                        Map.of(
                                "a-plans", subscription("plans", claim("a", 200, 3)),
                                "a-ticks", subscription("ticks", claim("a", 200, 3)),
                                "b-plans", subscription("plans", claim("b", 100, 0)),
                                "b-ticks", subscription("ticks", claim("b", 100, 0))));

        assertThat(view.partitions("a-plans")).containsExactly("plans-0", "plans-1", "plans-2");
        assertThat(view.partitions("a-ticks")).containsExactly("ticks-0", "ticks-1", "ticks-2");
        assertThat(view.partitions("b-plans")).isEmpty();
        assertThat(view.partitions("b-ticks")).isEmpty();
        assertThat(view.chosen("b-ticks")).as("every member is told who is active").isEqualTo("a");
    }

    @Test
    void withNoneActiveTheLongestRunningIsChosenAndAReplacedOneLosesTheRole() {
        assertThat(
                        ActiveInstanceAssignor.chooseInstance(
                                List.of(claim("b", 200, 0), claim("a", 100, 0))))
                .contains("a");
        // "a" was cut off and "b" made active in a later generation: "b" keeps it.
        assertThat(
                        ActiveInstanceAssignor.chooseInstance(
                                List.of(claim("a", 100, 3), claim("b", 200, 7))))
                .contains("b");
        GroupAssignmentView view =
                assign(
                        Map.of(
                                "junk", subscriptionWithData("plans", "not a claim"),
                                "b-plans", subscription("plans", claim("b", 300, 0))));
        assertThat(view.partitions("junk")).isEmpty();
        assertThat(view.partitions("b-plans")).hasSize(3);
    }

    @Test
    void anActiveInstanceReplacedWhileCutOffIsToldItLostTheRole() {
        ActiveInstance instance = ActiveInstance.of("lost-test-" + UUID.randomUUID(), "x");
        AtomicBoolean lost = new AtomicBoolean();
        instance.onLost(() -> lost.set(true));

        instance.assigned("x", 3);
        assertThat(instance.isActive()).isTrue();
        assertThat(instance.claim().activeGeneration()).isEqualTo(3);
        instance.assigned("x", 4);
        assertThat(lost).as("kept the role").isFalse();

        instance.assigned("y", 7);
        assertThat(lost).as("another instance was made active").isTrue();
    }

    @Test
    void whenTheActiveInstanceLeavesTheStandbyTakesEveryPartition() throws Exception {
        String group = "active-test-" + UUID.randomUUID();
        List<String> topics = List.of(group + "-plans", group + "-ticks");
        try (Admin admin =
                Admin.create(Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            admin.createTopics(topics.stream().map(t -> new NewTopic(t, 3, (short) 1)).toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Instance first = new Instance(group, "first", topics).start();
        ActiveInstance firstRole = ActiveInstance.of(group, "first");
        waitFor(firstRole::isActive, "the first instance active");
        Instance second = new Instance(group, "second", topics).start();
        ActiveInstance secondRole = ActiveInstance.of(group, "second");
        try {
            waitFor(() -> second.assignedOnce.get(), "the second instance in the group");
            waitFor(() -> first.assigned().size() == 6, "every partition with the first");
            assertThat(secondRole.isActive()).isFalse();
            assertThat(second.assigned()).isEmpty();

            first.close();
            waitFor(secondRole::isActive, "the second instance active");
            waitFor(() -> second.assigned().size() == 6, "every partition with the second");
        } finally {
            first.close();
            second.close();
        }
    }

    /** A service's channels: one consumer per topic, polled on a thread of its own. */
    private static final class Instance {
        private final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
        private final List<Thread> pollers = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicBoolean assignedOnce = new AtomicBoolean();
        private final Set<TopicPartition> assigned =
                java.util.concurrent.ConcurrentHashMap.newKeySet();

        Instance(String group, String id, List<String> topics) {
            for (String topic : topics) {
                consumers.add(
                        new KafkaConsumer<>(
                                Map.of(
                                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                        KafkaBroker.bootstrapServers(),
                                        ConsumerConfig.GROUP_ID_CONFIG,
                                        group,
                                        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                                        ActiveInstanceAssignor.class.getName(),
                                        ActiveInstanceAssignor.INSTANCE_ID_CONFIG,
                                        id,
                                        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                                        "10000",
                                        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                                        "1000"),
                                new StringDeserializer(),
                                new StringDeserializer()));
            }
            for (int i = 0; i < topics.size(); i++) {
                KafkaConsumer<String, String> consumer = consumers.get(i);
                String topic = topics.get(i);
                pollers.add(
                        new Thread(
                                () -> {
                                    consumer.subscribe(List.of(topic));
                                    while (running.get()) {
                                        consumer.poll(Duration.ofMillis(200));
                                        Set<TopicPartition> now = consumer.assignment();
                                        assigned.removeIf(p -> p.topic().equals(topic));
                                        assigned.addAll(now);
                                        assignedOnce.set(true);
                                    }
                                    consumer.close();
                                }));
            }
        }

        Instance start() {
            pollers.forEach(Thread::start);
            return this;
        }

        Set<TopicPartition> assigned() {
            return new HashSet<>(assigned);
        }

        void close() throws InterruptedException {
            running.set(false);
            for (Thread poller : pollers) {
                poller.join();
            }
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) {
        Awaitility.await(what)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }

    private static ActiveInstance.Claim claim(String id, long startedAt, int generation) {
        return new ActiveInstance.Claim(id, startedAt, generation);
    }

    private static Subscription subscription(String topic, ActiveInstance.Claim claim) {
        return subscriptionWithData(topic, claim.encode());
    }

    private static Subscription subscriptionWithData(String topic, String data) {
        return new Subscription(
                List.of(topic), ByteBuffer.wrap(data.getBytes(StandardCharsets.UTF_8)));
    }

    private static GroupAssignmentView assign(Map<String, Subscription> members) {
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> partitions = new ArrayList<>();
        for (String topic : List.of("plans", "ticks")) {
            for (int p = 0; p < 3; p++) {
                partitions.add(
                        new PartitionInfo(topic, p, node, new Node[] {node}, new Node[] {node}));
            }
        }
        Cluster cluster = new Cluster("c", List.of(node), partitions, Set.of(), Set.of());
        return new GroupAssignmentView(
                new ActiveInstanceAssignor()
                        .assign(cluster, new GroupSubscription(members))
                        .groupAssignment());
    }

    private record GroupAssignmentView(Map<String, Assignment> assignments) {
        List<String> partitions(String member) {
            return assignments.get(member).partitions().stream()
                    .map(TopicPartition::toString)
                    .sorted()
                    .toList();
        }

        String chosen(String member) {
            ByteBuffer data = assignments.get(member).userData().duplicate();
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
