package io.mtables.ddl.infra;

import io.mtables.messaging.BrokerUnavailableException;
import io.mtables.schemas.catalog.TableDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Whether a table's sources still hold every change since they began: a new query is switched to by
 * reading them again from their start (docs/evolution.md), so a source that starts elsewhere, or a
 * topic whose oldest records Kafka deleted (retention, not compaction), would leave rows out of the
 * new answer. Asked of the brokers the sources name, with Kafka's admin client.
 */
public class SourceHistory {

    private static final int TIMEOUT_MS = 5_000;

    private final Map<String, String> security;

    /**
     * @param security how ddl-service authenticates to the broker ({@code
     *     KafkaLog.securitySettings}): a source names the configured cluster alone (SourceOptions),
     *     so its credentials hold there
     */
    public SourceHistory(Map<String, String> security) {
        this.security = Map.copyOf(security);
    }

    /**
     * The first reason the sources of {@code definition} would not give a new query every change,
     * or empty when they would; {@code sources} finds a source's own definition (its WITH options).
     *
     * @throws BrokerUnavailableException when a source's broker does not answer (retryable)
     */
    public Optional<String> gap(
            TableDefinition definition, Function<String, Optional<TableDefinition>> sources) {
        for (var source : definition.sources()) {
            if (source.kind() != TableDefinition.Kind.SOURCE_TABLE) {
                continue; // a materialized table is read whole, from its latest snapshot
            }
            Map<String, String> options =
                    sources.apply(source.table()).map(TableDefinition::options).orElse(Map.of());
            String connector = options.getOrDefault("connector", "");
            if (!connector.equals("kafka") && !connector.equals("upsert-kafka")) {
                continue;
            }
            String startup = options.getOrDefault("scan.startup.mode", "group-offsets");
            if (connector.equals("kafka") && !startup.equals("earliest-offset")) {
                return Optional.of(
                        source.table()
                                + " is read from '"
                                + startup
                                + "', not from the earliest offset: a new query would start there"
                                + " and leave out what the running one read before");
            }
            String topics = options.get("topic");
            String servers = options.get("properties.bootstrap.servers");
            if (topics == null || servers == null) {
                continue; // a topic pattern, or options Flink itself refuses
            }
            Optional<String> deleted = deletedRecords(servers, List.of(topics.split(";")));
            if (deleted.isPresent()) {
                return Optional.of(
                        source.table()
                                + "'s "
                                + deleted.get()
                                + ": a new query read from the start would leave those changes"
                                + " out");
            }
        }
        return Optional.empty();
    }

    /**
     * A partition of {@code topics} whose oldest records were deleted by retention, in words; empty
     * when none.
     */
    private Optional<String> deletedRecords(String servers, List<String> topics) {
        Properties settings = new Properties();
        settings.putAll(security);
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        try (Admin admin = Admin.create(settings)) {
            for (String topic : topics) {
                List<TopicPartition> partitions = new ArrayList<>();
                try {
                    var description =
                            admin.describeTopics(List.of(topic))
                                    .allTopicNames()
                                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                                    .get(topic);
                    description
                            .partitions()
                            .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        continue; // nothing was ever written: nothing to leave out
                    }
                    throw e;
                }
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                String policy =
                        admin.describeConfigs(List.of(resource))
                                .all()
                                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                                .get(resource)
                                .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                                .value();
                if (!policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
                    continue; // compacted only: the latest change of every key stays, which is all
                    // a changelog source needs
                }
                Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
                partitions.forEach(p -> earliest.put(p, OffsetSpec.earliest()));
                var offsets =
                        admin.listOffsets(earliest).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                for (var entry : offsets.entrySet()) {
                    if (entry.getValue().offset() > 0) {
                        return Optional.of(
                                "topic "
                                        + topic
                                        + " (partition "
                                        + entry.getKey().partition()
                                        + ") starts at offset "
                                        + entry.getValue().offset()
                                        + ": Kafka deleted the records before it (cleanup.policy "
                                        + policy
                                        + ")");
                    }
                }
            }
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                // Not a broker that is down: asking again changes nothing.
                return Optional.of(
                        "the history of topics "
                                + topics
                                + " cannot be read: ddl-service's Kafka principal may not describe"
                                + " them (an ACL its operator adds, docs/security.md), so whether"
                                + " Kafka deleted records is not known");
            }
            throw unanswered(servers, e);
        } catch (TimeoutException e) {
            throw unanswered(servers, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerUnavailableException(
                    "interrupted while asking the broker at " + servers, e);
        }
    }

    private static BrokerUnavailableException unanswered(String servers, Exception e) {
        return new BrokerUnavailableException(
                "cannot tell whether the sources still hold their whole history: the broker at "
                        + servers
                        + " did not answer ("
                        + (e.getCause() == null ? e : e.getCause()).getMessage()
                        + "); nothing was changed, try again",
                e);
    }
}
