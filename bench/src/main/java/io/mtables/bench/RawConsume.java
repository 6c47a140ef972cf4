package io.mtables.bench;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The ceiling of any reader of pre-filled topics: one plain consumer thread. */
final class RawConsume {

    private RawConsume() {}

    /**
     * The topics (one partition each) from the start to their end by one consumer thread: change
     * events per second (the time to read every record, tombstones included); prints the figures.
     */
    static double rate(String bootstrap, List<String> topics, long events) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions =
                    topics.stream().map(topic -> new TopicPartition(topic, 0)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var ends = consumer.endOffsets(partitions);
            long start = System.nanoTime();
            long read = 0;
            long bytes = 0;
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(500))) {
                    read++;
                    bytes += record.value() == null ? 0 : record.value().length;
                }
            }
            double took = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "raw single-thread consume: %,d records (%,d MB of values) in %.2f s = %,.0f"
                            + " records/s, %,.0f events/s%n",
                    read, bytes >> 20, took, read / took, events / took);
            return events / took;
        }
    }
}
