package io.mtables.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Seed 003's users x domains as Debezium change events, written to two Kafka topics of one
 * partition each, as cdc-capture-service writes them (key {@code {"id":..}}, value the envelope
 * {@code before/after/source/op/ts_ms}, a tombstone after each delete). About 10 % of the events
 * are users and 90 % domains; inserts, updates (renames, a domain moving to another user) and
 * deletes, from a seeded random. The last event of each topic is a marker: a user and a domain of
 * that user, both new, so their joined row exists only once both topics were read to the end.
 *
 * <p>It also keeps the expected result of the join, as a {@link RowDigest}.
 */
final class JoinChanges {

    static final String[] FIRST = {
        "Egor", "Pavel", "Mitya", "Anna", "Olga", "Ivan", "Marie", "Jean", "Lea", "Hugo"
    };
    static final String[] LAST = {
        "Myasnik", "Hvastun", "Volk", "Petrova", "Martin", "Bernard", "Dubois", "Moreau", "D'Arcy"
    };
    static final String[] DOMAIN = {
        "Approval",
        "Rejection",
        "Stoppage",
        "Cancellation",
        "Billing",
        "Shipping",
        "Returns",
        "Audit"
    };

    private static final ObjectMapper JSON = new ObjectMapper();

    record User(long id, String firstname, String lastname) {}

    record Domain(long id, long userId, String name) {}

    /**
     * What was written: change events per topic, records (with tombstones), and the marker's domain
     * id.
     */
    record Written(
            long userEvents,
            long domainEvents,
            long records,
            long markerDomainId,
            RowDigest expected) {
        long events() {
            return userEvents + domainEvents;
        }
    }

    private final String schema;
    private final Random random;
    private final Map<Long, User> users = new LinkedHashMap<>();
    private final Map<Long, Domain> domains = new LinkedHashMap<>();
    private final List<Long> userIds = new ArrayList<>();
    private final List<Long> domainIds = new ArrayList<>();
    private long nextUser = 1;
    private long nextDomain = 1;
    private long clock = 1_767_225_600_000L; // source.ts_ms: 2026-01-01, one millisecond per event
    private long records;

    JoinChanges(String schema, long seed) {
        this.schema = schema;
        this.random = new Random(seed);
    }

    static String usersTopic(String schema) {
        return "cdc." + schema + ".users";
    }

    static String domainsTopic(String schema) {
        return "cdc." + schema + ".domains";
    }

    /**
     * Writes {@code events} change events (markers included) and returns what the join must hold.
     */
    Written write(String bootstrap, long events) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(
                            List.of(
                                    new NewTopic(usersTopic(schema), 1, (short) 1),
                                    new NewTopic(domainsTopic(schema), 1, (short) 1)))
                    .all()
                    .get();
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        long userEvents = 0;
        long domainEvents = 0;
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (long i = 0; i < events - 2; i++) {
                if (random.nextInt(10) == 0 || users.isEmpty()) {
                    userChange(producer);
                    userEvents++;
                } else {
                    domainChange(producer);
                    domainEvents++;
                }
            }
            User markerUser = new User(nextUser++, "Marker", "Last");
            Domain markerDomain = new Domain(nextDomain++, markerUser.id(), "marker");
            send(producer, usersTopic(schema), markerUser.id(), "c", null, user(markerUser));
            users.put(markerUser.id(), markerUser);
            send(
                    producer,
                    domainsTopic(schema),
                    markerDomain.id(),
                    "c",
                    null,
                    domain(markerDomain));
            domains.put(markerDomain.id(), markerDomain);
            producer.flush();
            return new Written(
                    userEvents + 1, domainEvents + 1, records, markerDomain.id(), expected());
        }
    }

    private void userChange(KafkaProducer<String, String> producer) throws Exception {
        int dice = random.nextInt(100);
        String topic = usersTopic(schema);
        if (dice < 50 || userIds.isEmpty()) {
            User user = new User(nextUser++, pick(FIRST), pick(LAST));
            users.put(user.id(), user);
            userIds.add(user.id());
            send(producer, topic, user.id(), "c", null, user(user));
        } else if (dice < 88) {
            User before = users.get(userIds.get(random.nextInt(userIds.size())));
            User after = new User(before.id(), pick(FIRST), pick(LAST));
            users.put(after.id(), after);
            send(producer, topic, after.id(), "u", user(before), user(after));
        } else {
            User gone = users.remove(removeAny(userIds));
            send(producer, topic, gone.id(), "d", user(gone), null);
        }
    }

    private void domainChange(KafkaProducer<String, String> producer) throws Exception {
        int dice = random.nextInt(100);
        String topic = domainsTopic(schema);
        if (dice < 55 || domainIds.isEmpty()) {
            long id = nextDomain++;
            // One in ten domains belongs to no user (yet): the inner join leaves it out.
            long owner =
                    random.nextInt(10) == 0
                            ? nextUser + random.nextInt(5)
                            : userIds.get(random.nextInt(userIds.size()));
            Domain domain = new Domain(id, owner, pick(DOMAIN) + " " + id);
            domains.put(id, domain);
            domainIds.add(id);
            send(producer, topic, id, "c", null, domain(domain));
        } else if (dice < 70) {
            Domain before = domains.get(domainIds.get(random.nextInt(domainIds.size())));
            Domain after =
                    new Domain(
                            before.id(),
                            userIds.get(random.nextInt(userIds.size())),
                            before.name());
            domains.put(after.id(), after);
            send(producer, topic, after.id(), "u", domain(before), domain(after));
        } else if (dice < 88) {
            Domain before = domains.get(domainIds.get(random.nextInt(domainIds.size())));
            Domain after =
                    new Domain(
                            before.id(), before.userId(), pick(DOMAIN) + " " + before.id() + "'");
            domains.put(after.id(), after);
            send(producer, topic, after.id(), "u", domain(before), domain(after));
        } else {
            Domain gone = domains.remove(removeAny(domainIds));
            send(producer, topic, gone.id(), "d", domain(gone), null);
        }
    }

    private void send(
            KafkaProducer<String, String> producer,
            String topic,
            long id,
            String op,
            ObjectNode before,
            ObjectNode after)
            throws Exception {
        ObjectNode envelope = JSON.createObjectNode();
        envelope.set("before", before);
        envelope.set("after", after);
        ObjectNode source = envelope.putObject("source");
        source.put("version", "3.4.3.Final")
                .put("connector", "postgresql")
                .put("name", "cdc")
                .put("ts_ms", clock)
                .put("snapshot", "false")
                .put("db", "mt")
                .put("schema", schema)
                .put("table", topic.substring(topic.lastIndexOf('.') + 1))
                .put("txId", clock / 3)
                .put("lsn", clock * 64);
        envelope.put("op", op);
        envelope.put("ts_ms", clock + 5);
        clock++;
        String key = "{\"id\":" + id + "}";
        producer.send(new ProducerRecord<>(topic, key, JSON.writeValueAsString(envelope)));
        records++;
        if (op.equals("d")) {
            producer.send(
                    new ProducerRecord<>(
                            topic, key, null)); // Debezium's tombstone, for log compaction
            records++;
        }
    }

    private static ObjectNode user(User user) {
        return JSON.createObjectNode()
                .put("id", user.id())
                .put("firstname", user.firstname())
                .put("lastname", user.lastname());
    }

    private static ObjectNode domain(Domain domain) {
        return JSON.createObjectNode()
                .put("id", domain.id())
                .put("user_id", domain.userId())
                .put("domain_name", domain.name());
    }

    /**
     * The inner join of the final users and domains: (domain_id, user_id, firstname, lastname,
     * domain_name).
     */
    private RowDigest expected() {
        RowDigest digest = new RowDigest();
        for (Domain domain : domains.values()) {
            User user = users.get(domain.userId());
            if (user != null) {
                digest.add(
                        domain.id(), user.id(), user.firstname(), user.lastname(), domain.name());
            }
        }
        return digest;
    }

    private long removeAny(List<Long> ids) {
        int index = random.nextInt(ids.size());
        long id = ids.get(index);
        ids.set(index, ids.get(ids.size() - 1)); // O(1): order does not matter
        ids.remove(ids.size() - 1);
        return id;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
