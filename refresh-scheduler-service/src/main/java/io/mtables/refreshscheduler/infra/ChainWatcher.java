package io.mtables.refreshscheduler.infra;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.plan.RefreshPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * What every scheduler instance needs to order chains, whichever tables it owns: the plans of all
 * tables (from the start of the compacted plans topic) and the outcomes of FULL refreshes (refresh
 * events of the last {@code lookback}). Reads all partitions of both topics, without a consumer
 * group, committed records only.
 */
final class ChainWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChainWatcher.class);

    private final KafkaConsumer<String, String> consumer;
    private final ContractCodec codec = new ContractCodec();
    private final Consumer<RefreshPlan> onPlan;
    private final BiConsumer<String, Instant> onRefreshEnded;

    /**
     * @param onPlan every table's plan, as read
     * @param onRefreshEnded a FULL refresh of a table for a scheduled time succeeded or failed
     */
    ChainWatcher(
            Map<String, Object> clientConfig,
            Duration lookback,
            Clock clock,
            Consumer<RefreshPlan> onPlan,
            BiConsumer<String, Instant> onRefreshEnded) {
        this.onPlan = onPlan;
        this.onRefreshEnded = onRefreshEnded;
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> plans = partitionsOf(Topics.REFRESH_PLANS);
        List<TopicPartition> events = partitionsOf(Topics.REFRESH_EVENTS);
        List<TopicPartition> all = new ArrayList<>(plans);
        all.addAll(events);
        consumer.assign(all);
        consumer.seekToBeginning(plans);
        long since = clock.instant().minus(lookback).toEpochMilli();
        Map<TopicPartition, Long> times = new HashMap<>();
        events.forEach(p -> times.put(p, since));
        var offsets = consumer.offsetsForTimes(times);
        for (TopicPartition partition : events) {
            var offset = offsets.get(partition);
            if (offset == null) {
                consumer.seekToEnd(List.of(partition));
            } else {
                consumer.seek(partition, offset.offset());
            }
        }
    }

    /** Reads up to the end of both topics as they are now. */
    void catchUp() {
        var ends = consumer.endOffsets(consumer.assignment());
        while (ends.entrySet().stream()
                .anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            pollOnce(Duration.ofMillis(500));
        }
    }

    /** Reads what arrived; whether anything did. */
    boolean pollOnce(Duration timeout) {
        var records = consumer.poll(timeout);
        records.forEach(this::handle);
        return !records.isEmpty();
    }

    private void handle(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return;
        }
        String type = KafkaLog.header(record, EventHeaders.TYPE);
        try {
            if (Contracts.REFRESH_PLANNED_V1.type().equals(type)) {
                onPlan.accept(codec.decode(Contracts.REFRESH_PLANNED_V1, record.value()));
            } else if (Contracts.REFRESH_SUCCEEDED_V1.type().equals(type)) {
                var succeeded = codec.decode(Contracts.REFRESH_SUCCEEDED_V1, record.value());
                if (succeeded.mode() == RefreshPlan.Mode.FULL) {
                    onRefreshEnded.accept(succeeded.table(), succeeded.dataTimestamp());
                }
            } else if (Contracts.REFRESH_FAILED_V1.type().equals(type)) {
                var failed = codec.decode(Contracts.REFRESH_FAILED_V1, record.value());
                if (failed.mode() == RefreshPlan.Mode.FULL && failed.scheduledTime() != null) {
                    onRefreshEnded.accept(failed.table(), failed.scheduledTime());
                }
            }
        } catch (RuntimeException unreadable) {
            // The consumers of these topics with a group send such records to the dead letters.
            LOG.warnf(
                    "skipping an unreadable %s record at %s-%d@%d: %s",
                    type,
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    unreadable.getMessage());
        }
    }

    private List<TopicPartition> partitionsOf(String topic) {
        while (true) {
            var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos != null && !infos.isEmpty()) {
                return infos.stream()
                        .map(info -> new TopicPartition(topic, info.partition()))
                        .toList();
            }
            LOG.infof("topic %s has no partitions yet; retrying", topic);
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + topic, e);
            }
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
