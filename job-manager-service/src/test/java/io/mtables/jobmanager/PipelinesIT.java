package io.mtables.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.jobmanager.jobs.Locations;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.planning.WrittenRows;
import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Column;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.tick.RefreshTick;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.assertj.core.api.Assertions;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real Flink jobs writing real Paimon tables, driven by hand-made definitions and plans through the
 * real broker, on the embedded cluster.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(EmbeddedFlinkTestResource.class)
class PipelinesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Inject Locations locations;

    private final String db =
            EmbeddedFlinkTestResource.runPrefix + UUID.randomUUID().toString().substring(0, 8);
    private BrokerDriver driver;
    private TopicProbe probe;

    @BeforeEach
    void tailEvents() {
        driver = new BrokerDriver();
        probe = driver.probe();
    }

    @AfterEach
    void closeProbe() {
        driver.close();
    }

    /** Where checkpoints and savepoints are written: the data directory. */
    String stateLocation() {
        return "file:";
    }

    @Test
    void continuousTableOverAChangeStreamHoldsTheInsertsUpdatesAndDeletes() throws Exception {
        String topic = db + "_users";
        var users =
                Tables.kafkaSource(
                        "default_catalog." + db + ".users",
                        "`id` BIGINT NOT NULL, `name` STRING, PRIMARY KEY (`id`) NOT ENFORCED",
                        topic,
                        "debezium-json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".users_mt";
        TableDefinition definition =
                Tables.materialized(
                        table,
                        1,
                        List.of(
                                new Column("id", "BIGINT", false),
                                new Column("name", "STRING", true)),
                        List.of(),
                        "SELECT `users`.`id`, `users`.`name` FROM `default_catalog`.`"
                                + db
                                + "`.`users` AS `users`",
                        List.of(users),
                        TableDefinition.Status.ACTIVE);
        change(topic, "1", null, "{\"id\":1,\"name\":\"ann\"}", "c");
        change(topic, "2", null, "{\"id\":2,\"name\":\"bob\"}", "c");
        change(topic, "3", null, "{\"id\":3,\"name\":\"cid\"}", "c");

        publish(definition, Tables.continuous(table, 1, List.of("id"), Duration.ofSeconds(1)));

        JsonNode started = event(Contracts.JOB_STARTED_V1, table);
        assertThat(started.path("mode").asText()).isEqualTo("CONTINUOUS");
        assertThat(started.path("jobName").asText()).startsWith("mt:" + table + ":v1:q");
        awaitRows(table, List.of("1|ann", "2|bob", "3|cid"));
        // Its load through the source, from Flink's source metrics: over once the three changes are
        // read.
        JsonNode loaded =
                readTree(
                        probe.await(
                                        r ->
                                                table.equals(r.key())
                                                        && Contracts.LOAD_PROGRESS_V1
                                                                .type()
                                                                .equals(
                                                                        TopicProbe.header(
                                                                                r,
                                                                                EventHeaders.TYPE))
                                                        && r.value().contains("\"caughtUp\":true"),
                                        PATIENCE)
                                .value());
        assertThat(loaded.path("jobId").asText()).isEqualTo(started.path("jobId").asText());
        assertThat(loaded.path("sourceRecordsBehind").asLong()).isZero();
        assertThat(loaded.path("sourceRecordsRead").asLong()).isGreaterThanOrEqualTo(3);

        change(topic, "1", "{\"id\":1,\"name\":\"ann\"}", "{\"id\":1,\"name\":\"anna\"}", "u");
        change(topic, "2", "{\"id\":2,\"name\":\"bob\"}", null, "d");
        awaitRows(table, List.of("1|anna", "3|cid"));
        JsonNode succeeded = event(Contracts.REFRESH_SUCCEEDED_V1, table);
        assertThat(succeeded.path("mode").asText()).isEqualTo("CONTINUOUS");
        assertThat(succeeded.path("snapshotId").asLong()).isPositive();
        assertThat(Instant.parse(succeeded.path("dataTimestamp").asText()))
                .as("the checkpoint was triggered before its snapshot was committed")
                .isBefore(Instant.parse(succeeded.path("finishedAt").asText()));

        // No change comes: each checkpoint still says the table is fresh as of its trigger time, on
        // the same snapshot, without a new one.
        Instant quietFrom = Instant.now();
        ConsumerRecord<String, String> quiet =
                probe.await(
                        r ->
                                table.equals(r.key())
                                        && Contracts.REFRESH_SUCCEEDED_V1
                                                .type()
                                                .equals(TopicProbe.header(r, EventHeaders.TYPE))
                                        && r.value().contains("\"NO_DATA\"")
                                        && Instant.parse(
                                                        readTree(r.value())
                                                                .path("dataTimestamp")
                                                                .asText())
                                                .isAfter(quietFrom),
                        PATIENCE);
        JsonNode noData = JSON.readTree(quiet.value());
        assertThat(noData.path("mode").asText()).isEqualTo("CONTINUOUS");
        assertThat(noData.path("rowsWritten").asLong()).isZero();
        assertThat(noData.path("snapshotId").asLong())
                .isGreaterThanOrEqualTo(succeeded.path("snapshotId").asLong());
        assertThat(PaimonRows.read(locations.warehouse(), table))
                .containsExactly("1|anna", "3|cid");

        String metrics =
                io.restassured.RestAssured.given()
                        .get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString();
        assertThat(metrics)
                .containsPattern(
                        "(?m)^mt_refreshes_total\\{[^}]*outcome=\"NO_DATA\"[^}]*table=\""
                                + Pattern.quote(table)
                                + "\"[^}]*\\} [1-9]")
                .containsPattern(
                        "(?m)^mt_refreshes_total\\{[^}]*outcome=\"REFRESHED\"[^}]*table=\""
                                + Pattern.quote(table)
                                + "\"[^}]*\\} [1-9]")
                .containsPattern("(?m)^mt_jobs_poll_seconds_count [1-9]");
    }

    private static JsonNode readTree(String json) {
        return BrokerDriver.readTree(json);
    }

    @Test
    void suspendThenResumeLosesAndDuplicatesNothingAndDropLeavesNothing() throws Exception {
        String topic = db + "_clicks";
        var clicks =
                Tables.kafkaSource(
                        "default_catalog." + db + ".clicks",
                        "`id` BIGINT, `category` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".clicks_by_category";
        TableDefinition v1 =
                Tables.materialized(
                        table,
                        1,
                        List.of(
                                new Column("category", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `clicks`.`category`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`clicks` AS `clicks` GROUP BY `clicks`.`category`",
                        List.of(clicks),
                        TableDefinition.Status.ACTIVE);
        RefreshPlan plan = Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1));
        clicks(topic, 0, 30);
        publish(v1, plan);
        event(Contracts.JOB_STARTED_V1, table);
        awaitRows(table, List.of("a|10", "b|10", "c|10"));

        publish(
                Tables.withVersion(v1, 2, TableDefinition.Status.SUSPENDED),
                Tables.withStatus(plan, 2, RefreshPlan.Status.SUSPENDED));
        JsonNode suspended = event(Contracts.SUSPENDED_V1, table);
        assertThat(suspended.path("savepoint").asText())
                .startsWith(stateLocation())
                .contains("savepoint-");
        assertThat(runningJobsOf(table)).isEmpty();
        clicks(topic, 30, 60);
        rowsStay(table, List.of("a|10", "b|10", "c|10")); // nothing is written while suspended

        publish(
                Tables.withVersion(v1, 3, TableDefinition.Status.ACTIVE),
                Tables.withStatus(plan, 3, RefreshPlan.Status.ACTIVE));
        event(Contracts.RESUMED_V1, table);
        JsonNode resumed = event(Contracts.JOB_STARTED_V1, table);
        assertThat(resumed.path("restoredFrom").asText())
                .as("the job restores the savepoint")
                .startsWith(stateLocation())
                .contains("savepoint-");
        awaitRows(table, List.of("a|20", "b|20", "c|20"));
        rowsStay(table, List.of("a|20", "b|20", "c|20")); // no row counted twice

        drop(table, 4, plan);
        assertThat(runningJobsOf(table)).isEmpty();
        assertThat(PaimonRows.exists(locations.warehouse(), table))
                .as("its Paimon table and files are gone")
                .isFalse();
    }

    @Test
    void aNewFreshnessKeepsTheStateAndANewQuerySwitchesReadersOverWithoutAGap() throws Exception {
        String topic = db + "_taps";
        var taps =
                Tables.kafkaSource(
                        "default_catalog." + db + ".taps",
                        "`id` BIGINT, `category` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".taps_by_category";
        TableDefinition v1 =
                Tables.materialized(
                        table,
                        1,
                        List.of(
                                new Column("category", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `taps`.`category`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`taps` AS `taps` GROUP BY `taps`.`category`",
                        List.of(taps),
                        TableDefinition.Status.ACTIVE);
        clicks(topic, 0, 30);
        publish(v1, Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1)));
        assertThat(event(Contracts.JOB_STARTED_V1, table).path("restoredFrom").isMissingNode())
                .isTrue();
        awaitRows(table, List.of("a|10", "b|10", "c|10"));

        publish(
                Tables.withVersion(v1, 2, TableDefinition.Status.ACTIVE),
                Tables.continuous(table, 2, List.of("category"), Duration.ofSeconds(2)));
        assertThat(event(Contracts.JOB_STARTED_V1, table).path("restoredFrom").asText())
                .as("same query: state kept")
                .contains("savepoint-");
        clicks(topic, 30, 60);
        List<String> oldAnswer = List.of("a|20", "b|20", "c|20");
        awaitRows(table, oldAnswer);

        // A new query: readers keep the old answer until the new one is whole, then read it; never
        // an empty table or a mix.
        List<String> newAnswer = List.of("a|20|57", "b|20|58", "c|20|59");
        var reader = new TableReader(locations, table, 100);
        TableDefinition v3 =
                Tables.materialized(
                        table,
                        3,
                        List.of(
                                new Column("category", "STRING", true),
                                new Column("n", "BIGINT", false),
                                new Column("last_id", "BIGINT", true)),
                        List.of(),
                        "SELECT `taps`.`category`, COUNT(*) AS `n`, MAX(`taps`.`id`) AS `last_id`"
                                + " FROM `default_catalog`.`"
                                + db
                                + "`.`taps` AS `taps` GROUP BY `taps`.`category`",
                        List.of(taps),
                        TableDefinition.Status.ACTIVE);
        publish(v3, Tables.continuous(table, 3, List.of("category"), Duration.ofSeconds(1)));
        JsonNode staging = event(Contracts.SWITCH_STARTED_V1, table);
        assertThat(staging.path("fromVersion").asLong()).isEqualTo(2);
        assertThat(staging.path("stagedTable").asText()).isEqualTo(table + "__mt_v3");
        JsonNode switched = event(Contracts.SWITCHED_OVER_V1, table);
        assertThat(switched.path("savepoint").asText())
                .startsWith(stateLocation())
                .contains("savepoint-");
        // How long the renames take is measured by `bin/bench evolution`, not bounded here: on an
        // object store a rename is a copy, and its time is the machine's, not a property of the
        // switch-over.
        assertThat(switched.path("nameGapMillis").asDouble())
                .as("the renames' time is reported")
                .isPositive();
        JsonNode restarted = event(Contracts.JOB_STARTED_V1, table);
        assertThat(restarted.path("definitionVersion").asLong()).isEqualTo(3);
        assertThat(restarted.path("restoredFrom").asText())
                .as("the new query's job goes on from its own savepoint")
                .isEqualTo(switched.path("savepoint").asText());
        awaitRows(table, newAnswer);
        clicks(topic, 60, 63);
        List<String> later = List.of("a|21|60", "b|21|61", "c|21|62");
        awaitRows(table, later);
        List<List<String>> seen = reader.stop();
        // A raw reader of the name may find nothing (no table, or its path moved away between
        // finding it and reading it) only while the renames run: on local files a moment, on an
        // object store (a rename is a copy there) as long as the copies take. ddl-service's SELECT
        // looks again instead.
        int readsInTheGap = 1 + (int) Math.ceil(switched.path("nameGapMillis").asDouble() / 100);
        assertThat(seen)
                .as("every read during the switch-over")
                .isNotEmpty()
                .allSatisfy(
                        rows ->
                                assertThat(rows)
                                        .isIn(
                                                Stream.concat(
                                                                Stream.of(
                                                                        List.<String>of(),
                                                                        oldAnswer),
                                                                // the three later clicks may be
                                                                // committed by more than one
                                                                // checkpoint
                                                                eachRowEither(newAnswer, later))
                                                        .toList()));
        assertThat(seen.stream().filter(List::isEmpty).count() + reader.failures().size())
                .as(
                        "reads of the name that found nothing, with the renames taking %s ms",
                        switched.path("nameGapMillis").asDouble())
                .isLessThanOrEqualTo(readsInTheGap);
        assertThat(seen).contains(oldAnswer, newAnswer);
        assertThat(runningJobsOf(table))
                .as("only the new query's job")
                .hasSize(1)
                .allMatch(job -> job.contains(":v3:"));
        assertThat(PaimonRows.exists(locations.warehouse(), table + "__mt_v3"))
                .as("the staged name is gone")
                .isFalse();
    }

    /**
     * A COMPATIBLE change with its rewrite of the written rows (as ddl-service finds it), restored
     * beside the table: the old job takes a savepoint and goes on serving, the rows it had written
     * by then are rewritten into the new query's in a staged table, the new query's job starts from
     * the savepoint into it and, caught up, is switched to. Its counts continue from the old state,
     * and no source is read again: the staged job's sent nothing, the new job's only the records
     * written after the change.
     */
    @Test
    void aCompatibleChangeGoesOnFromTheOldStateBesideTheTableWithTheWrittenRowsRewritten()
            throws Exception {
        var counts = new CountsPerCategory("presses");
        String topic = counts.topic();
        String table = counts.table();
        TableDefinition v1 = counts.v1();
        clicks(topic, 0, 31);
        publish(v1, Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1)));
        assertThat(event(Contracts.JOB_STARTED_V1, table).path("definitionVersion").asLong())
                .isEqualTo(1);
        List<String> oldAnswer = List.of("a|11", "b|10", "c|10");
        awaitRows(table, oldAnswer);

        TableDefinition v2 = counts.v2WithTens(" HAVING COUNT(*) > 10");
        var reader = new TableReader(locations, table, 100);
        publish(v2, Tables.continuous(table, 2, List.of("category"), Duration.ofSeconds(1)));
        JsonNode staging = event(Contracts.SWITCH_STARTED_V1, table);
        assertThat(staging.path("verdict").asText()).isEqualTo("COMPATIBLE");
        assertThat(staging.path("fromVersion").asLong()).isEqualTo(1);
        String savepoint = staging.path("restoredFrom").asText();
        assertThat(savepoint).startsWith(stateLocation()).contains("savepoint-");
        JsonNode switched = event(Contracts.SWITCHED_OVER_V1, table);
        JsonNode started = event(Contracts.JOB_STARTED_V1, table);
        assertThat(started.path("definitionVersion").asLong()).isEqualTo(2);
        assertThat(started.path("restoredFrom").asText())
                .isEqualTo(switched.path("savepoint").asText());
        List<String> newAnswer = List.of("a|11|110");
        awaitRows(table, newAnswer);

        clicks(topic, 31, 33);
        List<String> later = List.of("a|11|110", "b|11|110", "c|11|110");
        awaitRows(table, later);
        List<List<String>> seen = reader.stop();
        // The two later clicks (b's and c's) may be committed by two checkpoints.
        List<String> bFirst = List.of("a|11|110", "b|11|110");
        List<String> cFirst = List.of("a|11|110", "c|11|110");
        assertThat(seen)
                .as(
                        "every read through the change: the old answer, then the new one (or"
                                + " nothing, by a Paimon reader of its own during the renames)")
                .isNotEmpty()
                .allSatisfy(
                        rows ->
                                assertThat(rows)
                                        .isIn(
                                                List.of(), oldAnswer, newAnswer, bFirst, cFirst,
                                                later));
        assertThat(seen).contains(oldAnswer, newAnswer, later);
        // A rename on an object store is a copy: a reader of its own can find no table meanwhile.
        int readsInTheGap = 1 + (int) Math.ceil(switched.path("nameGapMillis").asDouble() / 100);
        assertThat(seen.stream().filter(List::isEmpty).count() + reader.failures().size())
                .as(
                        "reads of the name that found nothing, with the renames taking %s ms",
                        switched.path("nameGapMillis").asDouble())
                .isLessThanOrEqualTo(readsInTheGap);

        // Flink's own account: the staged job started from the old job's savepoint and its source
        // sent nothing (the 31 clicks were in the state); the new job started from the staged
        // job's and sent on the two records written after the change, not the topic's 33.
        String stagedJob = staging.path("jobId").asText();
        JsonNode stagedRestore =
                flinkGet("/jobs/" + stagedJob + "/checkpoints").path("latest").path("restored");
        assertThat(stagedRestore.path("external_path").asText()).isEqualTo(savepoint);
        assertThat(stagedRestore.path("is_savepoint").asBoolean()).isTrue();
        assertThat(sourceRecordsSent(stagedJob)).isZero();
        String jobId = started.path("jobId").asText();
        assertThat(
                        flinkGet("/jobs/" + jobId + "/checkpoints")
                                .path("latest")
                                .path("restored")
                                .path("is_savepoint")
                                .asBoolean())
                .isTrue();
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(sourceRecordsSent(jobId)).isEqualTo(2));
        assertThat(runningJobsOf(table)).hasSize(1).allMatch(job -> job.contains(":v2:"));
        assertThat(PaimonRows.exists(locations.warehouse(), table + "__mt_v2"))
                .as("the staged name is gone")
                .isFalse();
    }

    /**
     * The cluster's free task slots once it answers and its warm-up jobs have ended (they hold
     * slots for a moment).
     */
    private int freeSlotsOnceWarmedUp() {
        return await().atMost(PATIENCE)
                .ignoreExceptions()
                .until(
                        () -> {
                            for (JsonNode job : flinkGet("/jobs/overview").path("jobs")) {
                                if (!job.path("name").asText().startsWith("mt:")
                                        && job.path("state").asText().equals("RUNNING")) {
                                    return -1;
                                }
                            }
                            return flinkGet("/overview").path("slots-available").asInt();
                        },
                        free -> free >= 4);
    }

    /** How many records the job's first vertex, its source, sent on (Flink's REST API). */
    private long sourceRecordsSent(String jobId) throws Exception {
        JsonNode source = flinkGet("/jobs/" + jobId).path("vertices").get(0);
        assertThat(source.path("name").asText()).startsWith("Source");
        return source.path("metrics").path("write-records").asLong();
    }

    /**
     * The same change when the new query's job would find no task slots beside the old one's (both
     * jobs as wide as half the cluster's free slots and one more): restored in place. The old job
     * stops with a savepoint, the rows it wrote become the new query's in one commit, and the new
     * query's job goes on from the savepoint: its counts continue from the old state, and its
     * source sends on only the records written after the change.
     */
    @Test
    void aCompatibleChangeWithoutSlotsBesideTheOldJobIsRestoredInPlace() throws Exception {
        var counts = new CountsPerCategory("prods");
        String topic = counts.topic();
        String table = counts.table();
        int wide = freeSlotsOnceWarmedUp() / 2 + 1;
        Map<String, String> parallelism = Map.of("parallelism.default", String.valueOf(wide));
        TableDefinition v1 = Tables.withResumeOptions(counts.v1(), parallelism);
        clicks(topic, 0, 31);
        publish(v1, Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1)));
        assertThat(event(Contracts.JOB_STARTED_V1, table).path("definitionVersion").asLong())
                .isEqualTo(1);
        List<String> oldAnswer = List.of("a|11", "b|10", "c|10");
        awaitRows(table, oldAnswer);

        TableDefinition v2 =
                Tables.withResumeOptions(counts.v2WithTens(" HAVING COUNT(*) > 10"), parallelism);
        var reader = new TableReader(locations, table, 100);
        publish(v2, Tables.continuous(table, 2, List.of("category"), Duration.ofSeconds(1)));
        JsonNode restored = event(Contracts.STATE_RESTORED_V1, table);
        assertThat(restored.path("fromVersion").asLong()).isEqualTo(1);
        String savepoint = restored.path("savepoint").asText();
        assertThat(savepoint).startsWith(stateLocation()).contains("savepoint-");
        JsonNode started = event(Contracts.JOB_STARTED_V1, table);
        assertThat(started.path("definitionVersion").asLong()).isEqualTo(2);
        assertThat(started.path("restoredFrom").asText()).isEqualTo(savepoint);
        List<String> newAnswer = List.of("a|11|110");
        awaitRows(table, newAnswer);

        clicks(topic, 31, 33);
        List<String> later = List.of("a|11|110", "b|11|110", "c|11|110");
        awaitRows(table, later);
        List<List<String>> seen = reader.stop();
        List<String> bFirst = List.of("a|11|110", "b|11|110");
        List<String> cFirst = List.of("a|11|110", "c|11|110");
        assertThat(seen)
                .as(
                        "every read through the change: the old answer (its new column NULL for a"
                                + " moment), then the new one")
                .isNotEmpty()
                .allSatisfy(
                        rows ->
                                assertThat(rows)
                                        .isIn(
                                                oldAnswer,
                                                oldAnswer.stream().map(r -> r + "|null").toList(),
                                                newAnswer,
                                                bFirst,
                                                cFirst,
                                                later));
        assertThat(seen).contains(oldAnswer, newAnswer, later);
        assertThat(reader.failures()).isEmpty();

        String jobId = started.path("jobId").asText();
        JsonNode checkpoints = flinkGet("/jobs/" + jobId + "/checkpoints");
        assertThat(checkpoints.path("latest").path("restored").path("external_path").asText())
                .isEqualTo(savepoint);
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(sourceRecordsSent(jobId)).isEqualTo(2));
        assertThat(runningJobsOf(table)).hasSize(1).allMatch(job -> job.contains(":v2:"));
        drop(table, 3, Tables.continuous(table, 2, List.of("category"), Duration.ofSeconds(1)));
    }

    /**
     * A COMPATIBLE change of a table whose job runs with Flink's own operator uids (a table created
     * before ours): the savepoint's state would find no operators in the new job, which Flink
     * refuses; that is found before the job is submitted and reported, and a switch-over carries
     * the change out, ending in the new query's answer.
     */
    @Test
    void aRestoreFlinkRefusesFallsBackToASwitchOver() throws Exception {
        var counts = new CountsPerCategory("pokes");
        String topic = counts.topic();
        String table = counts.table();
        TableDefinition v1 = counts.v1();
        clicks(topic, 0, 30);
        publish(v1, Tables.continuous(table, 1, List.of("category"), Duration.ofSeconds(1)));
        awaitRows(table, List.of("a|10", "b|10", "c|10"));
        // The job the next query's replaces will get Flink's own uids: its state is not found.
        PaimonRows.removeOption(locations.warehouse(), table, "mt.operator-uids");

        TableDefinition v2 = counts.v2WithTens("");
        publish(v2, Tables.continuous(table, 2, List.of("category"), Duration.ofSeconds(1)));
        JsonNode refused = event(Contracts.REFRESH_FAILED_V1, table);
        assertThat(refused.path("reason").asText())
                .contains("Flink would not restore the old query's state into the new query's job")
                .contains("has no operator there")
                .contains("seen in the running job's latest checkpoint: the job was not stopped")
                .contains("a switch-over from the sources carries the change out instead");
        JsonNode switched = event(Contracts.SWITCHED_OVER_V1, table);
        assertThat(switched.path("definitionVersion").asLong()).isEqualTo(2);
        awaitRows(table, List.of("a|10|100", "b|10|100", "c|10|100"));
        clicks(topic, 30, 31);
        awaitRows(table, List.of("a|11|110", "b|10|100", "c|10|100"));
        assertThat(runningJobsOf(table)).hasSize(1).allMatch(job -> job.contains(":v2:"));
    }

    /**
     * A table switched over is another Paimon table under the same name, its snapshots numbered
     * anew: the CONTINUOUS table that reads it cannot go on from where it was. Its job is cancelled
     * (its rows, the answer over the old ones, keep serving), and it is switched over too: its
     * query read anew from the new rows.
     */
    @Test
    void aTableReadingASwitchedOverTableIsRebuiltFromTheNewRows() throws Exception {
        String topic = db + "_hits";
        var hits =
                Tables.kafkaSource(
                        "default_catalog." + db + ".hits",
                        "`id` BIGINT, `category` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String base = "default_catalog." + db + ".hits_ods";
        String counts = "default_catalog." + db + ".hits_per_category";
        List<Column> baseColumns =
                List.of(new Column("id", "BIGINT", false), new Column("category", "STRING", true));
        String baseQuery =
                "SELECT `hits`.`id`, `hits`.`category` FROM `default_catalog`.`"
                        + db
                        + "`.`hits` AS `hits` WHERE `hits`.`id` IS NOT NULL";
        TableDefinition baseV1 =
                Tables.materialized(
                        base,
                        1,
                        baseColumns,
                        List.of(),
                        baseQuery,
                        List.of(hits),
                        TableDefinition.Status.ACTIVE);
        TableDefinition countsTable =
                Tables.materialized(
                        counts,
                        1,
                        List.of(
                                new Column("category", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `o`.`category`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`hits_ods` AS `o` GROUP BY `o`.`category`",
                        List.of(Tables.materializedSource(baseV1)),
                        TableDefinition.Status.ACTIVE);
        clicks(topic, 0, 30);
        publish(baseV1, Tables.continuous(base, 1, List.of("id"), Duration.ofSeconds(1)));
        publish(
                countsTable,
                Tables.continuous(counts, 1, List.of("category"), Duration.ofSeconds(1)));
        List<String> oldAnswer = List.of("a|10", "b|10", "c|10");
        awaitRows(counts, oldAnswer);

        // The upstream's new query keeps half its rows.
        var reader = new TableReader(locations, counts, 100);
        publish(
                Tables.materialized(
                        base,
                        2,
                        baseColumns,
                        List.of(),
                        baseQuery + " AND `hits`.`id` >= 15",
                        List.of(hits),
                        TableDefinition.Status.ACTIVE),
                Tables.continuous(base, 2, List.of("id"), Duration.ofSeconds(1)));
        event(Contracts.SWITCHED_OVER_V1, base);
        JsonNode staging = event(Contracts.SWITCH_STARTED_V1, counts);
        assertThat(staging.path("definitionVersion").asLong())
                .as("the reader's own query is unchanged")
                .isEqualTo(1);
        assertThat(staging.path("replacedInput").asText()).isEqualTo(base);
        event(Contracts.SWITCHED_OVER_V1, counts);
        List<String> newAnswer = List.of("a|5", "b|5", "c|5");
        awaitRows(counts, newAnswer);
        clicks(topic, 30, 33);
        List<String> newer = List.of("a|6", "b|6", "c|6");
        awaitRows(counts, newer);
        List<List<String>> seen = reader.stop();
        assertThat(seen)
                .as("every read of the reader's table: the old answer, then the new one")
                .allSatisfy(rows -> assertThat(rows).isIn(List.of(), oldAnswer, newAnswer, newer))
                .contains(oldAnswer, newAnswer);
        assertThat(runningJobsOf(counts)).as("one job writes the reader's table").hasSize(1);
        // Their slots go back to the cluster the other tests share.
        drop(counts, 2, Tables.continuous(counts, 1, List.of("category"), Duration.ofSeconds(1)));
        drop(base, 3, Tables.continuous(base, 2, List.of("id"), Duration.ofSeconds(1)));
    }

    /** Drops the table as its definition's {@code version}; waits until it is reported. */
    private void drop(String table, long version, RefreshPlan plan) {
        send(
                Topics.TABLE_DEFINITIONS,
                table,
                Contracts.TABLE_DROPPED_V1,
                new TableDropped(
                        table,
                        version,
                        TableDefinition.Kind.MATERIALIZED_TABLE,
                        Instant.now(),
                        null));
        send(
                Topics.REFRESH_PLANS,
                table,
                Contracts.REFRESH_PLANNED_V1,
                Tables.withStatus(plan, version, RefreshPlan.Status.DROPPED));
        event(Contracts.DROPPED_V1, table);
    }

    @Test
    void fullTableRefreshesWholeOnRequestThenOnlyThePartitionOfATick() throws Exception {
        String topic = db + "_visits";
        var visits =
                Tables.kafkaSource(
                        "default_catalog." + db + ".visits",
                        "`id` BIGINT, `ds` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".daily";
        TableDefinition definition =
                Tables.materialized(
                        table,
                        1,
                        List.of(new Column("ds", "STRING", true), new Column("n", "BIGINT", false)),
                        List.of("ds"),
                        "SELECT `visits`.`ds`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`visits` AS `visits` GROUP BY `visits`.`ds`",
                        List.of(visits),
                        TableDefinition.Status.ACTIVE);
        visits(topic, "2026-11-28", 5);
        visits(topic, "2026-11-29", 5);
        publish(definition, Tables.full(table, 1));

        refresh(table, Map.of());
        JsonNode first = event(Contracts.REFRESH_SUCCEEDED_V1, table);
        assertThat(first.path("mode").asText()).isEqualTo("FULL");
        assertThat(first.path("rowsWritten").asLong()).isEqualTo(2);
        assertThat(PaimonRows.read(locations.warehouse(), table))
                .containsExactly("2026-11-28|5", "2026-11-29|5");

        visits(topic, "2026-11-28", 3);
        visits(topic, "2026-11-29", 4);
        send(
                Topics.REFRESH_TICKS,
                table,
                Contracts.REFRESH_TICK_V1,
                new RefreshTick(
                        table,
                        1,
                        Instant.parse("2026-11-28T00:00:00Z"),
                        Map.of("ds", "2026-11-28"),
                        RefreshTick.Reason.SCHEDULED,
                        table + "@2026-11-28"));
        JsonNode second = event(Contracts.REFRESH_SUCCEEDED_V1, table);
        assertThat(second.path("dataTimestamp").asText()).isEqualTo("2026-11-28T00:00:00Z");
        assertThat(second.path("partition").path("ds").asText()).isEqualTo("2026-11-28");
        assertThat(PaimonRows.read(locations.warehouse(), table))
                .as("only the refreshed partition changed")
                .containsExactly("2026-11-28|8", "2026-11-29|5");

        // A new query adding a column: the table keeps its rows (the new column NULL) until the
        // next refresh writes the new query's.
        TableDefinition v2 =
                Tables.materialized(
                        table,
                        2,
                        List.of(
                                new Column("ds", "STRING", true),
                                new Column("n", "BIGINT", false),
                                new Column("last_id", "BIGINT", true)),
                        List.of("ds"),
                        "SELECT `visits`.`ds`, COUNT(*) AS `n`, MAX(`visits`.`id`) AS `last_id`"
                                + " FROM `default_catalog`.`"
                                + db
                                + "`.`visits` AS `visits` GROUP BY `visits`.`ds`",
                        List.of(visits),
                        TableDefinition.Status.ACTIVE);
        publish(v2, Tables.full(table, 2));
        rowsStay(table, List.of("2026-11-28|8|null", "2026-11-29|5|null"));
        send(
                Topics.REFRESH_TICKS,
                table,
                Contracts.REFRESH_TICK_V1,
                new RefreshTick(
                        table,
                        2,
                        Instant.now(),
                        Map.of(),
                        RefreshTick.Reason.MANUAL,
                        UUID.randomUUID().toString()));
        event(Contracts.REFRESH_SUCCEEDED_V1, table);
        assertThat(PaimonRows.read(locations.warehouse(), table))
                .containsExactly("2026-11-28|8|4", "2026-11-29|9|4");
    }

    @Test
    void ticksDuringARefreshAreCoalescedIntoOne() throws Exception {
        String topic = db + "_hits";
        var hits =
                Tables.kafkaSource(
                        "default_catalog." + db + ".hits",
                        "`id` BIGINT, `ds` STRING",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".hits_daily";
        TableDefinition definition =
                Tables.materialized(
                        table,
                        1,
                        List.of(new Column("ds", "STRING", true), new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `hits`.`ds`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`hits` AS `hits` GROUP BY `hits`.`ds`",
                        List.of(hits),
                        TableDefinition.Status.ACTIVE);
        visits(topic, "2026-11-29", 3);
        publish(definition, Tables.full(table, 1));
        // The plan applied (its Paimon table made) first: ticks that come before it all wait, and
        // become one refresh, not the running one and one waiting one this test is about.
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            try {
                                return PaimonRows.read(locations.warehouse(), table).isEmpty();
                            } catch (Exception notYet) {
                                return false;
                            }
                        });

        for (int i = 0; i < 4; i++) {
            refresh(table, Map.of());
        }

        event(Contracts.REFRESH_SUCCEEDED_V1, table);
        event(Contracts.REFRESH_SUCCEEDED_V1, table);
        event(Contracts.JOB_STARTED_V1, table);
        event(Contracts.JOB_STARTED_V1, table);
        Assertions.assertThatThrownBy(
                        () ->
                                probe.await(
                                        r ->
                                                table.equals(r.key())
                                                        && Contracts.JOB_STARTED_V1
                                                                .type()
                                                                .equals(
                                                                        TopicProbe.header(
                                                                                r,
                                                                                EventHeaders.TYPE)),
                                        Duration.ofSeconds(8)))
                .as("four ticks, one refresh running: the three waiting ones become one")
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void aChainOfThreeReadsEachUpstreamAsItIsWritten() throws Exception {
        String topic = db + "_staff";
        var staff =
                Tables.kafkaSource(
                        "default_catalog." + db + ".staff",
                        "`id` BIGINT NOT NULL, `dept` STRING, PRIMARY KEY (`id`) NOT ENFORCED",
                        topic,
                        "debezium-json",
                        KafkaBroker.bootstrapServers());
        String ods = "default_catalog." + db + ".staff_ods";
        String perDept = "default_catalog." + db + ".per_dept";
        String large = "default_catalog." + db + ".large_depts";
        TableDefinition odsTable =
                Tables.materialized(
                        ods,
                        1,
                        List.of(
                                new Column("id", "BIGINT", false),
                                new Column("dept", "STRING", true)),
                        List.of(),
                        "SELECT `staff`.`id`, `staff`.`dept` FROM `default_catalog`.`"
                                + db
                                + "`.`staff` AS `staff`",
                        List.of(staff),
                        TableDefinition.Status.ACTIVE);
        TableDefinition perDeptTable =
                Tables.materialized(
                        perDept,
                        1,
                        List.of(
                                new Column("dept", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `o`.`dept`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`staff_ods` AS `o` GROUP BY `o`.`dept`",
                        List.of(Tables.materializedSource(odsTable)),
                        TableDefinition.Status.ACTIVE);
        TableDefinition largeTable =
                Tables.materialized(
                        large,
                        1,
                        List.of(
                                new Column("dept", "STRING", true),
                                new Column("n", "BIGINT", false)),
                        List.of(),
                        "SELECT `p`.`dept`, `p`.`n` FROM `default_catalog`.`"
                                + db
                                + "`.`per_dept` AS `p` WHERE `p`.`n` >= 2",
                        List.of(Tables.materializedSource(perDeptTable)),
                        TableDefinition.Status.ACTIVE);
        change(topic, "1", null, "{\"id\":1,\"dept\":\"ops\"}", "c");
        change(topic, "2", null, "{\"id\":2,\"dept\":\"ops\"}", "c");
        change(topic, "3", null, "{\"id\":3,\"dept\":\"dev\"}", "c");

        publish(odsTable, Tables.continuous(ods, 1, List.of("id"), Duration.ofSeconds(1)));
        publish(
                perDeptTable,
                Tables.continuous(perDept, 1, List.of("dept"), Duration.ofSeconds(1)));
        publish(largeTable, Tables.fullSkippingUnchanged(large, 1));
        awaitRows(perDept, List.of("dev|1", "ops|2"));
        refresh(large, Map.of());
        JsonNode refreshed = event(Contracts.REFRESH_SUCCEEDED_V1, large);
        assertThat(refreshed.path("outcome").asText()).isEqualTo("REFRESHED");
        long perDeptSnapshot = refreshed.path("inputSnapshots").path(perDept).asLong();
        assertThat(perDeptSnapshot)
                .as("the refresh records the snapshot of per_dept it read")
                .isPositive();
        assertThat(PaimonRows.read(locations.warehouse(), large)).containsExactly("ops|2");

        // Nothing upstream changed: the next refresh runs no job and says so.
        event(Contracts.JOB_STARTED_V1, large);
        var last = awaitNoData(large, refreshed);
        assertThat(last.noData().path("snapshotId").asLong())
                .isEqualTo(last.refreshed().path("snapshotId").asLong());
        assertThat(last.noData().path("inputSnapshots"))
                .isEqualTo(last.refreshed().path("inputSnapshots"));
        assertThat(last.noData().has("jobId")).isFalse();

        change(topic, "1", "{\"id\":1,\"dept\":\"ops\"}", "{\"id\":1,\"dept\":\"dev\"}", "u");
        change(topic, "2", "{\"id\":2,\"dept\":\"ops\"}", null, "d");
        awaitRows(ods, List.of("1|dev", "3|dev"));
        awaitRows(perDept, List.of("dev|2"));
        refresh(large, Map.of());
        await().atMost(PATIENCE)
                .untilAsserted(
                        () ->
                                assertThat(PaimonRows.read(locations.warehouse(), large))
                                        .containsExactly("dev|2"));
    }

    @Test
    void fiveFailedRefreshesInARowSuspendTheTable() throws Exception {
        String topic = db + "_numbers";
        var numbers =
                Tables.kafkaSource(
                        "default_catalog." + db + ".numbers",
                        "`id` INT",
                        topic,
                        "json",
                        KafkaBroker.bootstrapServers());
        String table = "default_catalog." + db + ".broken";
        TableDefinition definition =
                Tables.materialized(
                        table,
                        1,
                        List.of(new Column("id", "INT", true), new Column("x", "INT", true)),
                        List.of(),
                        "SELECT `numbers`.`id`, 10 / (`numbers`.`id` - `numbers`.`id`) AS `x` FROM"
                                + " `default_catalog`.`"
                                + db
                                + "`.`numbers` AS `numbers`",
                        List.of(numbers),
                        TableDefinition.Status.ACTIVE);
        produce(topic, "1", "{\"id\":1}");
        publish(definition, Tables.full(table, 1));

        for (int attempt = 1; attempt <= 5; attempt++) {
            refresh(table, Map.of());
            JsonNode failed = event(Contracts.REFRESH_FAILED_V1, table);
            assertThat(failed.path("consecutiveFailures").asInt()).isEqualTo(attempt);
            assertThat(failed.path("reason").asText()).contains("failed");
        }
        JsonNode suspended = event(Contracts.SUSPENDED_V1, table);
        assertThat(suspended.path("reason").asText()).startsWith("5 failures in a row");
    }

    @Test
    void aRefreshOverwritesOnlyThePartitionsWhoseInputsChangedAndEmptiesOnesLeftWithoutRows()
            throws Exception {
        String topic = db + "_sales";
        var sales =
                Tables.kafkaSource(
                        "default_catalog." + db + ".sales",
                        "`id` BIGINT NOT NULL, `ds` STRING NOT NULL, PRIMARY KEY (`id`) NOT"
                                + " ENFORCED",
                        topic,
                        "debezium-json",
                        KafkaBroker.bootstrapServers());
        String ods = "default_catalog." + db + ".sales_ods";
        String daily = "default_catalog." + db + ".sales_daily";
        TableDefinition odsTable =
                Tables.materialized(
                        ods,
                        1,
                        List.of(
                                new Column("id", "BIGINT", false),
                                new Column("ds", "STRING", false)),
                        List.of("ds"),
                        "SELECT `s`.`id`, `s`.`ds` FROM `default_catalog`.`"
                                + db
                                + "`.`sales` AS `s`",
                        List.of(sales),
                        TableDefinition.Status.ACTIVE);
        TableDefinition dailyTable =
                Tables.materialized(
                        daily,
                        1,
                        List.of(
                                new Column("ds", "STRING", false),
                                new Column("n", "BIGINT", false)),
                        List.of("ds"),
                        "SELECT `o`.`ds`, COUNT(*) AS `n` FROM `default_catalog`.`"
                                + db
                                + "`.`sales_ods` AS `o` GROUP BY `o`.`ds`",
                        List.of(Tables.materializedSource(odsTable)),
                        TableDefinition.Status.ACTIVE);
        for (int id = 1; id <= 4; id++) {
            change(
                    topic,
                    String.valueOf(id),
                    null,
                    "{\"id\":" + id + ",\"ds\":\"" + (id <= 2 ? "a" : id == 3 ? "b" : "c") + "\"}",
                    "c");
        }
        publish(odsTable, Tables.continuous(ods, 1, List.of("id"), Duration.ofSeconds(1)));
        publish(
                dailyTable,
                Tables.fullByChangedPartitions(daily, 1, Map.of(ods, Map.of("ds", "ds"))));
        awaitRows(ods, List.of("1|a", "2|a", "3|b", "4|c"));
        refresh(daily, Map.of());
        JsonNode whole = event(Contracts.REFRESH_SUCCEEDED_V1, daily);
        assertThat(whole.has("changedPartitions"))
                .as("nothing to compare with yet: the whole table")
                .isFalse();
        assertThat(PaimonRows.read(locations.warehouse(), daily))
                .containsExactly("a|2", "b|1", "c|1");

        change(topic, "3", "{\"id\":3,\"ds\":\"b\"}", null, "d");
        change(topic, "5", null, "{\"id\":5,\"ds\":\"a\"}", "c");
        awaitRows(ods, List.of("1|a", "2|a", "4|c", "5|a"));
        refresh(daily, Map.of());
        JsonNode changed = event(Contracts.REFRESH_SUCCEEDED_V1, daily);
        assertThat(changed.path("changedPartitions").findValuesAsText("ds"))
                .containsExactlyInAnyOrder("a", "b");
        assertThat(PaimonRows.read(locations.warehouse(), daily))
                .as("b has no rows left and is emptied")
                .containsExactly("a|3", "c|1");
        try (var paimon = new PaimonPartitions(locations.warehouse())) {
            assertThat(
                            paimon.written(
                                            daily,
                                            whole.path("snapshotId").asLong(),
                                            changed.path("snapshotId").asLong())
                                    .orElseThrow())
                    .as("Paimon's manifests: only a and b were written")
                    .containsExactlyInAnyOrder(Map.of("ds", "a"), Map.of("ds", "b"));
        }

        event(Contracts.JOB_STARTED_V1, daily);
        event(Contracts.JOB_STARTED_V1, daily);
        awaitNoData(daily, changed);
    }

    private record RefreshedThenNoData(JsonNode refreshed, JsonNode noData) {}

    /**
     * Refreshes until a refresh is NO_DATA with no job started for it. A CONTINUOUS input may still
     * commit a snapshot after its rows look final (an update retracted and emitted again), and a
     * refresh after that rightly runs; a few tries let it settle.
     */
    private RefreshedThenNoData awaitNoData(String table, JsonNode lastRefreshed) throws Exception {
        JsonNode refreshed = lastRefreshed;
        for (int attempt = 0; attempt < 5; attempt++) {
            refresh(table, Map.of());
            JsonNode next = event(Contracts.REFRESH_SUCCEEDED_V1, table);
            if (next.path("outcome").asText().equals("NO_DATA")) {
                Assertions.assertThatThrownBy(
                                () ->
                                        probe.await(
                                                r ->
                                                        table.equals(r.key())
                                                                && Contracts.JOB_STARTED_V1
                                                                        .type()
                                                                        .equals(
                                                                                TopicProbe.header(
                                                                                        r,
                                                                                        EventHeaders
                                                                                                .TYPE)),
                                                Duration.ofSeconds(3)))
                        .as("no Flink job for a refresh of unchanged inputs")
                        .isInstanceOf(AssertionError.class);
                return new RefreshedThenNoData(refreshed, next);
            }
            event(Contracts.JOB_STARTED_V1, table);
            refreshed = next;
        }
        throw new AssertionError(
                "no NO_DATA refresh of " + table + " in 5 tries: its inputs kept changing");
    }

    // ---- helpers ----

    /**
     * The embedded cluster's own logging is set up (not left to Quarkus's start-up handler, which
     * enabled every level and made Parquet format a DEBUG message per written value).
     */
    @Test
    void theEmbeddedClusterLogsAtInfoIntoItsLogFileAndNothingFiner() throws Exception {
        Path log = clusterLog();
        await().atMost(PATIENCE)
                .untilAsserted(
                        () ->
                                assertThat(Files.readString(log))
                                        .contains(" INFO org.apache.flink."));
        assertThat(Files.readString(log)).doesNotContain(" DEBUG ", " TRACE ", " FINE ");
    }

    private void publish(TableDefinition definition, RefreshPlan plan) {
        driver.publish(definition, plan);
    }

    /** What the scheduler sends for ALTER ... REFRESH [PARTITION]. */
    private void refresh(String table, Map<String, String> partition) {
        driver.refresh(table, partition);
    }

    private <T> void send(String topic, String key, Contract<T> contract, T payload) {
        driver.send(topic, key, contract, payload);
    }

    private void change(String topic, String key, String before, String after, String op) {
        driver.change(topic, key, before, after, op);
    }

    /** Every table whose i-th row is {@code before}'s or {@code after}'s i-th row. */
    private static Stream<List<String>> eachRowEither(List<String> before, List<String> after) {
        Stream<List<String>> tables = Stream.of(List.of());
        for (int i = 0; i < before.size(); i++) {
            List<String> choices = List.of(before.get(i), after.get(i));
            tables =
                    tables.flatMap(
                            head ->
                                    choices.stream()
                                            .map(
                                                    row ->
                                                            Stream.concat(
                                                                            head.stream(),
                                                                            Stream.of(row))
                                                                    .toList()));
        }
        return tables;
    }

    private void clicks(String topic, int from, int to) {
        for (int i = from; i < to; i++) {
            produce(
                    topic,
                    String.valueOf(i),
                    "{\"id\":" + i + ",\"category\":\"" + "abc".charAt(i % 3) + "\"}");
        }
    }

    private void visits(String topic, String ds, int count) {
        for (int i = 0; i < count; i++) {
            produce(topic, ds + i, "{\"id\":" + i + ",\"ds\":\"" + ds + "\"}");
        }
    }

    private void produce(String topic, String key, String value) {
        driver.produce(topic, key, value);
    }

    private JsonNode event(Contract<?> contract, String table) {
        return driver.event(contract, table, PATIENCE);
    }

    private void awaitRows(String table, List<String> expected) {
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(
                        () ->
                                assertThat(PaimonRows.read(locations.warehouse(), table))
                                        .containsExactlyElementsOf(expected));
    }

    /** The rows hold, unchanged, for three seconds in a row. */
    private void rowsStay(String table, List<String> expected) {
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(
                        () ->
                                assertThat(PaimonRows.read(locations.warehouse(), table))
                                        .containsExactlyElementsOf(expected));
    }

    /** The REST port of the cluster the jobs run on: the embedded cluster's, as configured. */
    int flinkPort() {
        return ConfigProvider.getConfig().getValue("mt.flink.embedded.port", Integer.class);
    }

    private static final HttpClient FLINK_HTTP = HttpClient.newHttpClient();

    /** A GET of Flink's REST API on the cluster the jobs run on, as this test reaches it. */
    HttpResponse<String> flinkRest(String path) throws IOException, InterruptedException {
        return FLINK_HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + flinkPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The log file of the cluster the jobs run on. */
    Path clusterLog() {
        return EmbeddedFlinkTestResource.DATA.resolve("flink/cluster.log");
    }

    /** The jobs of a table the cluster runs now, from Flink's REST API. */
    /**
     * A count per category over a Kafka topic of clicks, and its COMPATIBLE change that adds {@code
     * COUNT(*) * 10 AS tens} (and a HAVING), with the written rows' rewrite ddl-service would find.
     */
    private final class CountsPerCategory {
        private final String source;
        private final TableDefinition.SourceTable clicks;

        CountsPerCategory(String source) {
            this.source = source;
            this.clicks =
                    Tables.kafkaSource(
                            "default_catalog." + db + "." + source,
                            "`id` BIGINT, `category` STRING",
                            topic(),
                            "json",
                            KafkaBroker.bootstrapServers());
        }

        String topic() {
            return db + "_" + source;
        }

        String table() {
            return "default_catalog." + db + "." + source + "_by_category";
        }

        private String query(String select, String having) {
            String alias = "`" + source + "`";
            return "SELECT "
                    + alias
                    + ".`category`, COUNT(*) AS `n`"
                    + select
                    + " FROM `default_catalog`.`"
                    + db
                    + "`."
                    + alias
                    + " AS "
                    + alias
                    + " GROUP BY "
                    + alias
                    + ".`category`"
                    + having;
        }

        TableDefinition v1() {
            return Tables.materialized(
                    table(),
                    1,
                    List.of(
                            new Column("category", "STRING", true),
                            new Column("n", "BIGINT", false)),
                    List.of(),
                    query("", ""),
                    List.of(clicks),
                    TableDefinition.Status.ACTIVE);
        }

        TableDefinition v2WithTens(String having) {
            String newQuery = query(", COUNT(*) * 10 AS `tens`", having);
            String writtenRows =
                    WrittenRows.of(
                                    query("", ""),
                                    List.of("category", "n"),
                                    newQuery,
                                    List.of("category", "n", "tens"),
                                    List.of("category"))
                            .query()
                            .orElseThrow();
            return Tables.materialized(
                            table(),
                            2,
                            List.of(
                                    new Column("category", "STRING", true),
                                    new Column("n", "BIGINT", false),
                                    new Column("tens", "BIGINT", false)),
                            List.of(),
                            newQuery,
                            List.of(clicks),
                            TableDefinition.Status.ACTIVE)
                    .withQueryChange(
                            new TableDefinition.QueryChange(
                                    1,
                                    TableDefinition.Verdict.COMPATIBLE,
                                    "Flink's plans compute the same state in both queries",
                                    "restored",
                                    writtenRows));
        }
    }

    private JsonNode flinkGet(String path) throws Exception {
        HttpResponse<String> response = flinkRest(path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private List<String> runningJobsOf(String table) throws Exception {
        HttpResponse<String> overview = flinkRest("/jobs/overview");
        List<String> running = new ArrayList<>();
        for (JsonNode job : JSON.readTree(overview.body()).path("jobs")) {
            String state = job.path("state").asText();
            if (job.path("name").asText().startsWith("mt:" + table + ":")
                    && !List.of("FINISHED", "CANCELED", "FAILED").contains(state)) {
                running.add(job.path("name").asText() + " " + state);
            }
        }
        return running;
    }

    /**
     * At its start the service did {@link io.mtables.planning.WarmUp}'s work once: its job
     * compiled, not submitted, into a scratch warehouse, and on an embedded cluster that ran no job
     * yet a small job run to its end; nothing failed and the scratch warehouses are deleted.
     */
    @Test
    void theJobCompilerAndAFreshEmbeddedClusterAreWarmedUpOnceAtStart() {
        List<String> parts =
                embeddedCluster() ? List.of("job compiler", "cluster") : List.of("job compiler");
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .untilAsserted(
                        () -> {
                            String metrics =
                                    io.restassured.RestAssured.given()
                                            .get("/q/metrics")
                                            .then()
                                            .statusCode(200)
                                            .extract()
                                            .asString();
                            for (String part : parts) {
                                assertThat(metrics)
                                        .containsPattern(
                                                "(?m)^mt_warm_up_seconds_count\\{part=\""
                                                        + part
                                                        + "\",?\\} 1\\.0$");
                            }
                            assertThat(metrics).doesNotContain("mt_warm_up_failures_total");
                            try (var left =
                                    java.nio.file.Files.list(
                                            java.nio.file.Path.of(
                                                    System.getProperty("java.io.tmpdir")))) {
                                // Only this JVM's: one killed mid-warm-up may have left its own.
                                long started =
                                        java.lang.management.ManagementFactory.getRuntimeMXBean()
                                                .getStartTime();
                                assertThat(
                                                left.filter(
                                                                path ->
                                                                        path.toFile().lastModified()
                                                                                >= started)
                                                        .map(path -> path.getFileName().toString()))
                                        .as("the warm-up's scratch warehouses are deleted")
                                        .noneMatch(name -> name.startsWith("mt-warm-up-"));
                            }
                        });
        List<String> warmUpJobs = new ArrayList<>();
        for (JsonNode job : jobsOverview()) {
            if (job.path("name").asText().equals("mt-warm-up")) {
                warmUpJobs.add(job.path("state").asText());
            }
        }
        assertThat(warmUpJobs)
                .as("the cluster's warm-up jobs: Paimon's classes loaded, then compiled")
                .isEqualTo(embeddedCluster() ? List.of("FINISHED", "FINISHED") : List.of());
    }

    /** Whether the jobs run on the cluster the service embeds (started fresh for this class). */
    boolean embeddedCluster() {
        return true;
    }

    private JsonNode jobsOverview() {
        try {
            return JSON.readTree(flinkRest("/jobs/overview").body()).path("jobs");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read Flink's jobs", e);
        }
    }
}
