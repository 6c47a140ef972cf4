package io.mtables.messaging;

import io.mtables.schemas.TopicSpec;
import io.mtables.schemas.Topics;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.jboss.logging.Logger;

/**
 * Creates the system's topics that do not exist yet, and gives existing ones the retention their
 * contract needs (a compacted topic that a producer auto-created as a plain one is corrected), so a
 * service never depends on who started first.
 */
@ApplicationScoped
public class TopicCreator {

    private static final Logger LOG = Logger.getLogger(TopicCreator.class);

    private final Map<String, Object> adminConfig;
    private final MessagingConfig config;

    public TopicCreator(
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            MessagingConfig config) {
        this.adminConfig = adminSubset(kafkaConfig);
        this.config = config;
    }

    /** Ensures every topic of {@link Topics#ALL}, retrying until the broker answers. */
    @Asynchronous
    @Retry(
            maxRetries = -1,
            delay = 2,
            delayUnit = ChronoUnit.SECONDS,
            maxDuration = 0,
            jitter = 500)
    public CompletionStage<Void> ensureTopics() {
        try (Admin admin = Admin.create(adminConfig)) {
            int created = ensure(admin, config.topicPartitions(), config.topicReplicationFactor());
            LOG.infof("topics ready: %d created, %d checked", created, Topics.ALL.size());
            return CompletableFuture.completedFuture(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("cannot create topics yet (%s); retrying", e.getMessage());
            throw new IllegalStateException("topic creation failed", e);
        }
    }

    /**
     * Creates the topics of {@link Topics#ALL} that {@code admin}'s broker lacks and aligns the
     * retention of all (also what an operator runs where the services may not create topics);
     * returns how many it created.
     */
    public static int ensure(Admin admin, int partitions, short replicationFactor)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<String> existing = admin.listTopics().names().get(10, TimeUnit.SECONDS);
        List<NewTopic> missing =
                Topics.ALL.stream()
                        .filter(spec -> !existing.contains(spec.name()))
                        .map(spec -> newTopic(spec, partitions, replicationFactor))
                        .toList();
        createIgnoringRaces(admin, missing);
        alignRetention(admin);
        return missing.size();
    }

    private static NewTopic newTopic(TopicSpec spec, int partitions, short replicationFactor) {
        return new NewTopic(spec.name(), spec.partitionsOr(partitions), replicationFactor)
                .configs(
                        Map.of(
                                TopicConfig.CLEANUP_POLICY_CONFIG,
                                spec.retention().cleanupPolicy()));
    }

    private static void createIgnoringRaces(Admin admin, List<NewTopic> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (var result : admin.createTopics(missing).values().entrySet()) {
            try {
                result.getValue().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e; // another service created it meanwhile: fine; anything else is not
                }
            }
        }
    }

    private static void alignRetention(Admin admin)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (TopicSpec spec : Topics.ALL) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, spec.name());
            ConfigEntry policy =
                    new ConfigEntry(
                            TopicConfig.CLEANUP_POLICY_CONFIG, spec.retention().cleanupPolicy());
            changes.put(topic, List.of(new AlterConfigOp(policy, AlterConfigOp.OpType.SET)));
        }
        admin.incrementalAlterConfigs(changes).all().get(10, TimeUnit.SECONDS);
    }

    private static Map<String, Object> adminSubset(Map<String, Object> kafkaConfig) {
        Map<String, Object> subset = new HashMap<>();
        kafkaConfig.forEach(
                (key, value) -> {
                    if (AdminClientConfig.configNames().contains(key)) {
                        subset.put(key, value);
                    }
                });
        return subset;
    }
}
