package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static io.mtables.ddl.StatementRequests.publishContinuousPlan;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN CREATE | ALTER MATERIALIZED TABLE answers with the plan and its reasons, and changes
 * nothing.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class ExplainIT {

    private static final String DB = "explain_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String CLICKS =
            "CREATE TABLE IF NOT EXISTS "
                    + DB
                    + ".clicks (id BIGINT, category STRING, ts TIMESTAMP(3)) WITH ('connector' ="
                    + " 'kafka', 'topic' = 'clicks', 'format' = 'json',"
                    + " 'properties.bootstrap.servers' = '"
                    + KafkaBroker.bootstrapServers()
                    + "',"
                    + " 'scan.startup.mode' = 'earliest-offset')";
    private static final String BY_CATEGORY =
            " AS SELECT category, COUNT(*) AS n FROM " + DB + ".clicks GROUP BY category";

    @Test
    void explainPlansWithoutCreating() {
        DialectIT.awaitReady();
        post(CLICKS, 202);

        post(
                        "EXPLAIN CREATE MATERIALIZED TABLE "
                                + DB
                                + ".by_category FRESHNESS = INTERVAL '5' MINUTE"
                                + BY_CATEGORY,
                        200)
                .then()
                .body("rows", hasItem(List.of("change", "would create")))
                .body("rows", hasItem(List.of("plan.mode", "CONTINUOUS")))
                .body("rows", hasItem(List.of("plan.changelog_mode", "[I,UA]")))
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "plan.upsert_key",
                                        "__mt_key = NULL-safe encoding of (category), derived from"
                                                + " the query")))
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "plan.reason.1",
                                        "CONTINUOUS because the freshness 5 min is below the"
                                            + " threshold 30 min"
                                            + " (materialized-table.refresh-mode.freshness-threshold).")))
                .body("rows", hasItem(hasItem("plan.warning.UnboundedState")));
        post("SHOW MATERIALIZED TABLES FROM " + DB, 200)
                .then()
                .body("rows", not(hasItem(List.of("by_category"))));
    }

    @Test
    void explainCreateOrAlterShowsTheNewPlanOfAnExistingTable() {
        DialectIT.awaitReady();
        post(CLICKS, 202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".hourly FRESHNESS = INTERVAL '5' MINUTE"
                        + BY_CATEGORY,
                202);

        post(
                        "EXPLAIN CREATE OR ALTER MATERIALIZED TABLE "
                                + DB
                                + ".hourly FRESHNESS = INTERVAL '1' HOUR"
                                + BY_CATEGORY,
                        200)
                .then()
                .body("rows", hasItem(List.of("change", "would alter")))
                .body("rows", hasItem(List.of("version", "2")))
                .body("rows", hasItem(List.of("plan.mode", "FULL")))
                .body("rows", hasItem(List.of("plan.cron", "0 0 0/1 * * ? *")));
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".hourly", 200)
                .then()
                .body("rows", hasItem(List.of("version", "1")))
                .body("rows", hasItem(List.of("freshness", "INTERVAL '5' MINUTE")));
    }

    @Test
    void explainOfAnythingElseIsRefusedWithWhatIsAllowed() {
        DialectIT.awaitReady();

        post("EXPLAIN SELECT 1", 400)
                .then()
                .body("title", org.hamcrest.Matchers.equalTo("UnsupportedStatement"))
                .body(
                        "detail",
                        org.hamcrest.Matchers.containsString(
                                "EXPLAIN is answered for CREATE [OR ALTER] MATERIALIZED TABLE and"
                                        + " for ALTER MATERIALIZED TABLE"));
        post(
                "EXPLAIN CREATE MATERIALIZED TABLE "
                        + DB
                        + ".bad AS SELECT nope FROM "
                        + DB
                        + ".missing",
                400);
    }

    /**
     * EXPLAIN ALTER ... AS on a CONTINUOUS table: seed 004's verdict on the running job's state,
     * from Flink's compiled plans, with its reason and what will be done; the table stays as it
     * was.
     */
    @Test
    void explainAlterAsGivesTheVerdictOnTheRunningJobsState() {
        DialectIT.awaitReady();
        post(CLICKS, 202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".live FRESHNESS = INTERVAL '5' SECOND"
                        + BY_CATEGORY,
                202);
        publishContinuousPlan("default_catalog." + DB + ".live");
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                post("DESCRIBE MATERIALIZED TABLE " + DB + ".live", 200)
                                        .then()
                                        .body("rows", hasItem(List.of("plan.mode", "CONTINUOUS"))));
        // A CONTINUOUS table that reads it: rebuilt from the new rows, which EXPLAIN says.
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".live_busy FRESHNESS = INTERVAL '5' SECOND AS SELECT category, n FROM "
                        + DB
                        + ".live WHERE n > 10",
                202);
        publishContinuousPlan("default_catalog." + DB + ".live_busy");
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                post("DESCRIBE MATERIALIZED TABLE " + DB + ".live_busy", 200)
                                        .then()
                                        .body("rows", hasItem(List.of("plan.mode", "CONTINUOUS"))));

        post(
                        "EXPLAIN ALTER MATERIALIZED TABLE "
                                + DB
                                + ".live AS SELECT category, COUNT(*) AS n FROM "
                                + DB
                                + ".clicks GROUP BY category HAVING COUNT(*) > 1",
                        200)
                .then()
                .body("rows", hasItem(List.of("change", "would alter")))
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "evolution.readers",
                                        "default_catalog."
                                                + DB
                                                + ".live_busy (CONTINUOUS): its job stops, and its"
                                                + " own query is read anew from the new rows into"
                                                + " a staged table, its rows serving until that"
                                                + " has caught up")))
                .body("rows", hasItem(List.of("evolution.verdict", "COMPATIBLE")))
                .body(
                        "rows",
                        hasItem(
                                hasItem(
                                        org.hamcrest.Matchers.startsWith(
                                                "Flink's plans compute the same state in both"
                                                        + " queries:"
                                                        + " GroupAggregate(groupBy=[category]"))))
                .body(
                        "rows",
                        hasItem(
                                hasItem(
                                        org.hamcrest.Matchers.startsWith(
                                                "the running job stops with a savepoint; the rows"
                                                        + " it wrote are rewritten"))))
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "evolution.written_rows",
                                        "SELECT `category` AS `category`, `n` AS `n`\nFROM"
                                                + " `__mt_written`\nWHERE `n` > 1")));
        post(
                        "EXPLAIN ALTER MATERIALIZED TABLE "
                                + DB
                                + ".live AS SELECT category, COUNT(DISTINCT id) AS n FROM "
                                + DB
                                + ".clicks GROUP BY category",
                        200)
                .then()
                .body("rows", hasItem(List.of("evolution.verdict", "INCOMPATIBLE")))
                .body(
                        "rows",
                        hasItem(
                                hasItem(
                                        org.hamcrest.Matchers.startsWith(
                                                "DISTINCT aggregates were added"))));
        post(
                        "EXPLAIN ALTER MATERIALIZED TABLE "
                                + DB
                                + ".live SET FRESHNESS = INTERVAL '10' SECOND",
                        200)
                .then()
                .body("rows", hasItem(List.of("change", "would alter")))
                .body("rows", not(hasItem(hasItem("evolution.verdict"))));
        post("EXPLAIN ALTER MATERIALIZED TABLE " + DB + ".live REFRESH", 400)
                .then()
                .body("title", org.hamcrest.Matchers.equalTo("UnsupportedStatement"));
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".live", 200)
                .then()
                .body("rows", hasItem(List.of("version", "1")));

        // The ALTER itself answers with the same verdict and what is done.
        post(
                        "ALTER MATERIALIZED TABLE "
                                + DB
                                + ".live AS SELECT category, COUNT(DISTINCT id) AS n FROM "
                                + DB
                                + ".clicks GROUP BY category",
                        202)
                .then()
                .body(
                        "message",
                        org.hamcrest.Matchers.startsWith(
                                "Materialized table default_catalog."
                                        + DB
                                        + ".live altered. The running job's state: INCOMPATIBLE"
                                        + " (DISTINCT aggregates"))
                .body(
                        "message",
                        org.hamcrest.Matchers.containsString(
                                "; the new query fills a staged table from its sources beside the"
                                        + " running job, which keeps serving the table"));
        // DESCRIBE keeps the latest change of the query, also through a later ALTER that keeps the
        // query.
        post("ALTER MATERIALIZED TABLE " + DB + ".live SET FRESHNESS = INTERVAL '10' SECOND", 202);
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".live", 200)
                .then()
                .body("rows", hasItem(List.of("version", "3")))
                .body("rows", hasItem(List.of("last_change.from_version", "1")))
                .body("rows", hasItem(List.of("last_change.verdict", "INCOMPATIBLE")))
                .body(
                        "rows",
                        hasItem(
                                hasItem(
                                        org.hamcrest.Matchers.startsWith(
                                                "DISTINCT aggregates were added"))))
                .body(
                        "rows",
                        hasItem(
                                List.of(
                                        "last_change.action",
                                        "the new query fills a staged table from its sources beside"
                                            + " the running job, which keeps serving the table;"
                                            + " once it has caught up, readers switch to it at once"
                                            + " (it takes the table's name) and the old job stops:"
                                            + " no empty or half-filled table is ever read")));
    }

    /**
     * A FULL table keeps no streaming state: the verdict says so, and that the next refresh runs
     * the new query.
     */
    @Test
    void explainAlterAsOfATableWithoutAStreamingJobSaysThereIsNoStateToKeep() {
        DialectIT.awaitReady();
        post(CLICKS, 202);
        post(
                "CREATE MATERIALIZED TABLE "
                        + DB
                        + ".daily FRESHNESS = INTERVAL '1' DAY"
                        + BY_CATEGORY,
                202);

        post(
                        "EXPLAIN ALTER MATERIALIZED TABLE "
                                + DB
                                + ".daily AS SELECT category, COUNT(*) AS n, MAX(id) AS top FROM "
                                + DB
                                + ".clicks GROUP BY category",
                        200)
                .then()
                .body("rows", hasItem(List.of("evolution.verdict", "NONE")))
                .body(
                        "rows",
                        hasItem(
                                hasItem(
                                        org.hamcrest.Matchers.startsWith(
                                                "the table has no streaming job whose state could"
                                                        + " be kept"))));
    }

    /**
     * A new query is built by reading the sources again from their start: a source read from
     * elsewhere, or a topic whose oldest records Kafka deleted, is refused with the reason (EXPLAIN
     * too), and nothing changes.
     */
    @Test
    void aNewQueryIsRefusedWhenTheSourcesNoLongerHoldEveryChange() throws Exception {
        DialectIT.awaitReady();
        String topic = DB + "_taps";
        try (TopicProbe probe = new TopicProbe()) {
            for (int i = 0; i < 3; i++) {
                probe.send(
                        topic,
                        String.valueOf(i),
                        "{\"id\":" + i + ",\"category\":\"a\"}",
                        Map.of());
            }
        }
        try (var admin =
                Admin.create(Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            // What retention does to a topic's oldest records.
            admin.deleteRecords(
                            Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(2)))
                    .all()
                    .get();
        }
        post(
                "CREATE TABLE "
                        + DB
                        + ".taps (id BIGINT, category STRING) WITH ('connector' = 'kafka', 'topic'"
                        + " = '"
                        + topic
                        + "', 'format' = 'json',"
                        + " 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'earliest-offset')",
                202);
        post(
                "CREATE TABLE "
                        + DB
                        + ".live_taps (id BIGINT, category STRING) WITH ('connector' = 'kafka',"
                        + " 'topic' = '"
                        + topic
                        + "', 'format' = 'json',"
                        + " 'properties.bootstrap.servers' = '"
                        + KafkaBroker.bootstrapServers()
                        + "', 'scan.startup.mode' = 'latest-offset')",
                202);
        for (String source : List.of("taps", "live_taps")) {
            post(
                    "CREATE MATERIALIZED TABLE "
                            + DB
                            + "."
                            + source
                            + "_n FRESHNESS = INTERVAL '5' SECOND AS SELECT category, COUNT(*) AS n"
                            + " FROM "
                            + DB
                            + "."
                            + source
                            + " GROUP BY category",
                    202);
            publishContinuousPlan("default_catalog." + DB + "." + source + "_n");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    post(
                                                    "DESCRIBE MATERIALIZED TABLE "
                                                            + DB
                                                            + "."
                                                            + source
                                                            + "_n",
                                                    200)
                                            .then()
                                            .body(
                                                    "rows",
                                                    hasItem(List.of("plan.mode", "CONTINUOUS"))));
        }

        String newQuery =
                " AS SELECT category, COUNT(*) AS n, MAX(id) AS top FROM "
                        + DB
                        + ".taps GROUP BY category";
        for (String statement :
                List.of(
                        "EXPLAIN ALTER MATERIALIZED TABLE " + DB + ".taps_n" + newQuery,
                        "ALTER MATERIALIZED TABLE " + DB + ".taps_n" + newQuery)) {
            post(statement, 400)
                    .then()
                    .body("title", org.hamcrest.Matchers.equalTo("SourceHistoryIncomplete"))
                    .body(
                            org.hamcrest.Matchers.containsString(
                                    "topic "
                                            + topic
                                            + " (partition 0) starts at offset 2: Kafka deleted the"
                                            + " records before it"))
                    .body(
                            org.hamcrest.Matchers.containsString(
                                    "no column of the key (category) is a window aggregate's end"))
                    .body(org.hamcrest.Matchers.containsString("Nothing was changed."));
        }
        post(
                        "ALTER MATERIALIZED TABLE "
                                + DB
                                + ".live_taps_n AS SELECT category, COUNT(*) AS n, MAX(id) AS top"
                                + " FROM "
                                + DB
                                + ".live_taps GROUP BY category",
                        400)
                .then()
                .body("title", org.hamcrest.Matchers.equalTo("SourceHistoryIncomplete"))
                .body(
                        org.hamcrest.Matchers.containsString(
                                "is read from 'latest-offset', not from the earliest offset"));
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".taps_n", 200)
                .then()
                .body("rows", hasItem(List.of("version", "1")));
        post("DESCRIBE MATERIALIZED TABLE " + DB + ".live_taps_n", 200)
                .then()
                .body("rows", hasItem(List.of("version", "1")));
    }
}
