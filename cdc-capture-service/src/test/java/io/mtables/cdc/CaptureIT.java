package io.mtables.cdc;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** A real PostgreSQL, the real Debezium engine and a real broker: what lands in the topics. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(PostgresTestResource.class)
class CaptureIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String ITEMS = PostgresTestResource.TOPIC_PREFIX + ".cdc_it.items";

    @Test
    void rowsThenTheirChangesArriveInTheEnvelopeAndFormatsFlinkReads() throws Exception {
        try (TopicProbe probe = new TopicProbe().fromStart(ITEMS)) {
            JsonNode snapshot = event(probe, "1", "r");
            assertThat(snapshot.path("before").isNull()).isTrue();
            assertThat(snapshot.path("after").toString())
                    .isEqualTo(
                            "{\"id\":1,\"name\":\"snapshot\",\"price\":\"12.34\",\"d\":\"2026-11-29\",\"t\":\"10:15:30.123456\",\"ts\":\"2026-11-29"
                                + " 10:15:30.123456\",\"tstz\":\"2026-11-29"
                                + " 09:15:30.123456Z\",\"flag\":true}");

            PostgresTestResource.execute(
                    "INSERT INTO cdc_it.items VALUES (2, 'stream', 0.5, '1999-12-31',"
                            + " '23:59:59.999999', '1999-12-31 23:59:59.999999', '2000-01-01"
                            + " 00:00:00+00', false)");
            JsonNode inserted = event(probe, "2", "c");
            assertThat(inserted.path("after").toString())
                    .isEqualTo(
                            "{\"id\":2,\"name\":\"stream\",\"price\":\"0.50\",\"d\":\"1999-12-31\",\"t\":\"23:59:59.999999\",\"ts\":\"1999-12-31"
                                + " 23:59:59.999999\",\"tstz\":\"2000-01-01"
                                + " 00:00:00Z\",\"flag\":false}");

            PostgresTestResource.execute(
                    "UPDATE cdc_it.items SET name = 'renamed', ts = NULL WHERE id = 2");
            JsonNode updated = event(probe, "2", "u");
            assertThat(updated.path("before").path("name").asText())
                    .as("the whole old row (REPLICA IDENTITY FULL)")
                    .isEqualTo("stream");
            assertThat(updated.path("before").path("price").asText()).isEqualTo("0.50");
            assertThat(updated.path("after").path("name").asText()).isEqualTo("renamed");
            assertThat(updated.path("after").path("ts").isNull()).isTrue();

            PostgresTestResource.execute("DELETE FROM cdc_it.items WHERE id = 2");
            JsonNode deleted = event(probe, "2", "d");
            assertThat(deleted.path("before").path("name").asText()).isEqualTo("renamed");
            assertThat(deleted.path("after").isNull()).isTrue();
            ConsumerRecord<String, String> tombstone =
                    probe.await(r -> r.value() == null, PATIENCE);
            assertThat(JSON.readTree(tombstone.key()).path("id").asLong()).isEqualTo(2);
        }
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics)
                .containsPattern(
                        "(?m)^mt_cdc_changes_total\\{topic=\""
                                + Pattern.quote(ITEMS)
                                + "\"\\} [1-9]")
                .containsPattern(
                        "(?m)^mt_cdc_capture_lag_seconds\\{topic=\""
                                + Pattern.quote(ITEMS)
                                + "\"\\} \\d");
    }

    /**
     * By design (DebeziumProperties.HEARTBEAT_ACTION_QUERY) the slot confirms WAL written only for
     * other tables within one heartbeat (the message is written), one more (the position it carries
     * is handed over) and one offset flush (the position is confirmed to PostgreSQL). The bound is
     * that cycle a few times over, for a loaded machine: it follows the configured intervals.
     */
    /**
     * The capture runs with sslmode=verify-full (PostgresTestResource): its replication connection
     * is encrypted, and it checked the server's certificate against the CA to get there.
     */
    @Test
    void theReplicationConnectionIsTlsThatCheckedTheServer() {
        await().atMost(PATIENCE)
                .untilAsserted(
                        () ->
                                assertThat(
                                                query(
                                                        "SELECT coalesce((SELECT s.ssl::text || ' '"
                                                            + " || coalesce(s.version, '') FROM"
                                                            + " pg_replication_slots r JOIN"
                                                            + " pg_stat_ssl s ON s.pid ="
                                                            + " r.active_pid WHERE r.slot_name = '"
                                                                + PostgresTestResource.SLOT
                                                                + "'), 'no active slot')"))
                                        .as("the capture's replication connection")
                                        .startsWith("true TLSv1."));
    }

    @Test
    void anIdleCaptureStillConfirmsNewWalPositionsSoTheSlotHoldsNoWal() throws Exception {
        Duration cycle =
                PostgresTestResource.HEARTBEAT
                        .multipliedBy(2)
                        .plus(PostgresTestResource.OFFSET_FLUSH);
        await().atMost(PATIENCE)
                .until(
                        () ->
                                query(
                                                "SELECT count(*) FROM pg_replication_slots WHERE"
                                                        + " active AND slot_name = '"
                                                        + PostgresTestResource.SLOT
                                                        + "'")
                                        .equals("1"));
        PostgresTestResource.execute(
                "INSERT INTO cdc_it_other.noise (payload) SELECT repeat('x', 200) FROM"
                        + " generate_series(1, 20000)");
        String written = query("SELECT pg_current_wal_lsn()::text");

        await().atMost(cycle.multipliedBy(5))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () ->
                                assertThat(
                                                query(
                                                        "SELECT confirmed_flush_lsn >= '"
                                                                + written
                                                                + "'::pg_lsn FROM"
                                                                + " pg_replication_slots WHERE"
                                                                + " slot_name = '"
                                                                + PostgresTestResource.SLOT
                                                                + "'"))
                                        .as(
                                                "the slot confirmed past WAL written only for"
                                                        + " tables it does not capture")
                                        .isEqualTo("t"));
    }

    @Test
    void theHeartbeatMessageMovesTheSlotButIsNotPublished() throws Exception {
        Duration cycle =
                PostgresTestResource.HEARTBEAT
                        .multipliedBy(2)
                        .plus(PostgresTestResource.OFFSET_FLUSH);
        await().atMost(PATIENCE)
                .until(
                        () ->
                                query(
                                                "SELECT count(*) FROM pg_replication_slots WHERE"
                                                        + " active AND slot_name = '"
                                                        + PostgresTestResource.SLOT
                                                        + "'")
                                        .equals("1"));
        String now = query("SELECT pg_current_wal_lsn()::text");
        // Nothing is written here but the heartbeat's own message: only it can move the slot past
        // this point.
        await().atMost(cycle.multipliedBy(5))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () ->
                                query(
                                                "SELECT confirmed_flush_lsn > '"
                                                        + now
                                                        + "'::pg_lsn FROM pg_replication_slots"
                                                        + " WHERE slot_name = '"
                                                        + PostgresTestResource.SLOT
                                                        + "'")
                                        .equals("t"));
        try (Admin admin =
                Admin.create(Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get())
                    .as("Debezium's topic of logical decoding messages")
                    .doesNotContain(PostgresTestResource.TOPIC_PREFIX + ".message");
        }
    }

    /**
     * The position the publisher commits with each batch lands under the key Debezium's own offset
     * flush writes (one key for the one slot), so a restart reads it back.
     */
    @Test
    void thePositionIsCommittedUnderTheKeyDebeziumReadsBack() throws Exception {
        try (TopicProbe items = new TopicProbe().tail(ITEMS)) {
            PostgresTestResource.execute(
                    "INSERT INTO cdc_it.items (id, name) VALUES (30, 'position')");
            event(items, "30", "c");
        }
        Set<String> keys = new HashSet<>();
        try (TopicProbe offsets =
                new TopicProbe().fromStart("mt.cdc.offsets." + PostgresTestResource.TOPIC_PREFIX)) {
            // Ours with the batch, Debezium's at its next flush (every second here).
            for (int i = 0; i < 2; i++) {
                keys.add(offsets.await(record -> true, PATIENCE).key());
            }
        }
        assertThat(keys)
                .containsExactly(
                        "[\"mt-cdc-capture\",{\"server\":\""
                                + PostgresTestResource.TOPIC_PREFIX
                                + "\"}]");
    }

    /**
     * A job declared over a table with no rows yet must find its topic (Flink's Kafka source fails
     * on a missing one).
     */
    @Test
    void everyCapturedTableHasItsTopicBeforeItsFirstChange() throws Exception {
        try (Admin admin =
                Admin.create(Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            await().atMost(PATIENCE)
                    .untilAsserted(
                            () ->
                                    assertThat(admin.listTopics().names().get())
                                            .contains(
                                                    PostgresTestResource.TOPIC_PREFIX
                                                            + ".cdc_it.empty_at_start")
                                            .doesNotContain(
                                                    PostgresTestResource.TOPIC_PREFIX
                                                            + ".cdc_it_other.noise"));
        }
    }

    /**
     * The snapshot's rows reach their topics together, in one transaction: meanwhile, and once
     * done, how far it is goes to mt.capture.status, each table's rows against PostgreSQL's own
     * estimate (none for a table never analyzed).
     */
    @Test
    void howFarTheSnapshotIsIsReportedAgainstPostgresEstimate() throws Exception {
        String bulk = PostgresTestResource.TOPIC_PREFIX + ".cdc_it.bulk";
        try (TopicProbe probe = new TopicProbe().fromStart(Topics.CAPTURE_STATUS)) {
            JsonNode done =
                    JSON.readTree(
                            probe.await(
                                            r ->
                                                    bulk.equals(r.key())
                                                            && r.value().contains("\"done\":true"),
                                            PATIENCE)
                                    .value());
            assertThat(done.path("rowsCaptured").asLong())
                    .isEqualTo(PostgresTestResource.BULK_ROWS);
            assertThat(done.path("rowsEstimated").asLong())
                    .as("pg_class.reltuples after ANALYZE")
                    .isEqualTo(PostgresTestResource.BULK_ROWS);
            assertThat(done.path("table").asText()).isEqualTo("cdc_it.bulk");
            JsonNode underWay =
                    JSON.readTree(
                            probe.await(
                                            r ->
                                                    bulk.equals(r.key())
                                                            && r.value().contains("\"done\":false"),
                                            PATIENCE)
                                    .value());
            assertThat(underWay.path("rowsCaptured").asLong())
                    .as("a report while it ran, before its last batch")
                    .isBetween(0L, PostgresTestResource.BULK_ROWS - 1L);
            JsonNode items =
                    JSON.readTree(
                            probe.await(
                                            r ->
                                                    ITEMS.equals(r.key())
                                                            && r.value().contains("\"done\":true"),
                                            PATIENCE)
                                    .value());
            assertThat(items.has("rowsEstimated")).as("a table never analyzed").isFalse();
            assertThat(items.path("rowsCaptured").asLong()).isEqualTo(1);
        }
    }

    @Test
    void readinessSaysWhatIsCaptured() {
        await().atMost(PATIENCE)
                .untilAsserted(
                        () ->
                                given().get("/q/health/ready")
                                        .then()
                                        .statusCode(200)
                                        .body(
                                                "checks.find { it.name == 'mt-cdc' }.status",
                                                equalTo("UP")));
    }

    private static JsonNode event(TopicProbe probe, String id, String op) throws Exception {
        ConsumerRecord<String, String> record =
                probe.await(
                        r ->
                                r.value() != null
                                        && r.key() != null
                                        && r.key().equals("{\"id\":" + id + "}")
                                        && r.value().contains("\"op\":\"" + op + "\""),
                        PATIENCE);
        JsonNode event = JSON.readTree(record.value());
        assertThat(event.has("source")).isTrue();
        assertThat(event.path("source").path("table").asText()).isEqualTo("items");
        assertThat(record.timestamp())
                .as("the record's time is the change's commit time")
                .isEqualTo(event.path("source").path("ts_ms").asLong());
        assertThat(Long.parseLong(TopicProbe.header(record, "mt-published-at")))
                .as("published after it was committed")
                .isGreaterThanOrEqualTo(record.timestamp());
        return event;
    }

    private static String query(String sql) throws Exception {
        try (Connection connection = PostgresTestResource.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
