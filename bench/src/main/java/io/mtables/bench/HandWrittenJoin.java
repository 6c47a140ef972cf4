package io.mtables.bench;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.paimon.flink.LogicalTypeConversion;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.table.FileStoreTable;

/**
 * The baseline of the throughput benchmark: seed 003's join written by hand as a Flink DataStream
 * job, the seed's {@code KeyedCoProcessFunction} (users and domains keyed by user id, the user in a
 * ValueState, its domains in a MapState) completed with what the seed lists as next steps:
 * Debezium's update and delete events (a domain moving to another user leaves the old key first),
 * and Paimon's own DataStream sink ({@link FlinkSinkBuilder}) into a table of the same shape and
 * options as the materialized table's. No deduplication of replayed events: this is the lean job a
 * developer would write, with the same checkpoint interval and pause, parallelism and state
 * backend.
 */
final class HandWrittenJoin {

    private HandWrittenJoin() {}

    /**
     * Submits the job to the cluster at host:port, shipping {@code jar} (this module's classes).
     */
    static JobClient submit(
            String host,
            int port,
            String jar,
            String bootstrap,
            String usersTopic,
            String domainsTopic,
            FileStoreTable sink,
            long checkpointMillis,
            long minPauseMillis,
            int parallelism,
            String stateBackend)
            throws Exception {
        Configuration configuration = new Configuration();
        configuration.setString("state.backend.type", stateBackend);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment(host, port, configuration, jar);
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointMillis, CheckpointingMode.EXACTLY_ONCE);
        env.getCheckpointConfig().setMinPauseBetweenCheckpoints(minPauseMillis);

        DataStream<UserChange> users =
                env.fromSource(
                        source(bootstrap, usersTopic, new UserEvents()),
                        WatermarkStrategy.noWatermarks(),
                        "users");
        DataStream<DomainChange> domains =
                env.fromSource(
                        source(bootstrap, domainsTopic, new DomainEvents()),
                        WatermarkStrategy.noWatermarks(),
                        "domains");
        DataType rowType =
                TypeConversions.fromLogicalToDataType(
                        LogicalTypeConversion.toLogicalType(sink.rowType()));
        DataStream<Row> joined =
                users.connect(domains)
                        .keyBy(new UserKey(), new DomainOwner())
                        .process(new Join(sink.rowType().getFieldNames()))
                        .returns(ExternalTypeInfo.of(rowType));
        new FlinkSinkBuilder(sink).forRow(joined, rowType).parallelism(parallelism).build();
        return env.executeAsync("hand-written users x domains join");
    }

    private static <T> KafkaSource<T> source(
            String bootstrap, String topic, KafkaRecordDeserializationSchema<T> events) {
        return KafkaSource.<T>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(topic)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setDeserializer(events)
                .build();
    }

    /** A user's new state, or its deletion. */
    public static final class UserChange {
        public long id;
        public String firstname;
        public String lastname;
        public boolean deleted;
    }

    /** A domain's new state under its owner, or its leaving that owner (deleted, or moved away). */
    public static final class DomainChange {
        public long id;
        public long userId;
        public String name;
        public boolean deleted;
    }

    /** Debezium JSON of the users topic; tombstones skipped. */
    static final class UserEvents implements KafkaRecordDeserializationSchema<UserChange> {
        private transient ObjectMapper json;

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<UserChange> out)
                throws IOException {
            if (record.value() == null) {
                return;
            }
            json = json == null ? new ObjectMapper() : json;
            JsonNode event = json.readTree(record.value());
            boolean deleted = event.path("op").asText().equals("d");
            JsonNode row = deleted ? event.path("before") : event.path("after");
            UserChange change = new UserChange();
            change.id = row.path("id").asLong();
            change.firstname = row.path("firstname").asText();
            change.lastname = row.path("lastname").asText();
            change.deleted = deleted;
            out.collect(change);
        }

        @Override
        public TypeInformation<UserChange> getProducedType() {
            return TypeInformation.of(UserChange.class);
        }
    }

    /**
     * Debezium JSON of the domains topic: an update that changes the owner leaves the old owner
     * first.
     */
    static final class DomainEvents implements KafkaRecordDeserializationSchema<DomainChange> {
        private transient ObjectMapper json;

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<DomainChange> out)
                throws IOException {
            if (record.value() == null) {
                return;
            }
            json = json == null ? new ObjectMapper() : json;
            JsonNode event = json.readTree(record.value());
            String op = event.path("op").asText();
            JsonNode before = event.path("before");
            JsonNode after = event.path("after");
            if (op.equals("d")) {
                out.collect(domain(before, true));
                return;
            }
            if (op.equals("u")
                    && before.path("user_id").asLong() != after.path("user_id").asLong()) {
                out.collect(domain(before, true));
            }
            out.collect(domain(after, false));
        }

        private static DomainChange domain(JsonNode row, boolean deleted) {
            DomainChange change = new DomainChange();
            change.id = row.path("id").asLong();
            change.userId = row.path("user_id").asLong();
            change.name = row.path("domain_name").asText();
            change.deleted = deleted;
            return change;
        }

        @Override
        public TypeInformation<DomainChange> getProducedType() {
            return TypeInformation.of(DomainChange.class);
        }
    }

    static final class UserKey implements KeySelector<UserChange, Long> {
        @Override
        public Long getKey(UserChange user) {
            return user.id;
        }
    }

    static final class DomainOwner implements KeySelector<DomainChange, Long> {
        @Override
        public Long getKey(DomainChange domain) {
            return domain.userId;
        }
    }

    /**
     * Per user id: the user and its domains. Emits the joined row of every domain whose user is
     * known, as an upsert by domain id, and its deletion when the user or the domain goes.
     */
    static final class Join extends KeyedCoProcessFunction<Long, UserChange, DomainChange, Row> {
        private final int width;
        private final int[]
                positions; // of domain_id, user_id, firstname, lastname, domain_name in the table
        private transient ValueState<UserChange> user;
        private transient MapState<Long, DomainChange> domains;

        Join(List<String> columns) {
            this.width = columns.size();
            this.positions =
                    List.of("domain_id", "user_id", "firstname", "lastname", "domain_name").stream()
                            .mapToInt(columns::indexOf)
                            .toArray();
            if (Arrays.stream(positions).anyMatch(p -> p < 0)) {
                throw new IllegalArgumentException(
                        "the sink table lacks a column of the join: " + columns);
            }
        }

        @Override
        public void open(OpenContext openContext) {
            user =
                    getRuntimeContext()
                            .getState(new ValueStateDescriptor<>("user", UserChange.class));
            domains =
                    getRuntimeContext()
                            .getMapState(
                                    new MapStateDescriptor<>(
                                            "domains", Long.class, DomainChange.class));
        }

        @Override
        public void processElement1(UserChange change, Context context, Collector<Row> out)
                throws Exception {
            if (change.deleted) {
                UserChange known = user.value();
                if (known != null) {
                    for (DomainChange domain : domains.values()) {
                        out.collect(row(RowKind.DELETE, known, domain));
                    }
                }
                user.clear();
                return;
            }
            user.update(change);
            for (DomainChange domain : domains.values()) {
                out.collect(row(RowKind.UPDATE_AFTER, change, domain));
            }
        }

        @Override
        public void processElement2(DomainChange change, Context context, Collector<Row> out)
                throws Exception {
            UserChange owner = user.value();
            if (change.deleted) {
                DomainChange known = domains.get(change.id);
                domains.remove(change.id);
                if (owner != null && known != null) {
                    out.collect(row(RowKind.DELETE, owner, known));
                }
                return;
            }
            domains.put(change.id, change);
            if (owner != null) {
                out.collect(row(RowKind.UPDATE_AFTER, owner, change));
            }
        }

        private Row row(RowKind kind, UserChange owner, DomainChange domain) {
            Row row = new Row(kind, width);
            row.setField(positions[0], domain.id);
            row.setField(positions[1], owner.id);
            row.setField(positions[2], owner.firstname);
            row.setField(positions[3], owner.lastname);
            row.setField(positions[4], domain.name);
            return row;
        }
    }
}
