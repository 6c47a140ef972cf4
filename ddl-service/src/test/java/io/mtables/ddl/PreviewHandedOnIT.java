package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static io.mtables.ddl.StatementRequests.publishContinuousPlan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.planning.PlannerSettings;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The plan ddl-service previews to refuse at once is handed on in the definition it writes, with
 * what it was made with (docs/planner.md): planner-service takes it when it would plan the same.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PreviewHandedOnIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DB = "preview_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String BY_CATEGORY = "default_catalog." + DB + ".by_category";

    @Test
    void aDefinitionCarriesItsPreviewUnlessAnUpstreamPlanWasNotSeenYet() throws Exception {
        DialectIT.awaitReady();
        post(
                "CREATE TABLE "
                        + DB
                        + ".clicks (id BIGINT, category STRING) WITH ('connector' = 'datagen')",
                202);
        try (TopicProbe probe = new TopicProbe().fromStart(Topics.TABLE_DEFINITIONS)) {
            post(
                    "CREATE MATERIALIZED TABLE "
                            + BY_CATEGORY
                            + " FRESHNESS = INTERVAL '5' MINUTE AS SELECT category, COUNT(*) AS n"
                            + " FROM "
                            + DB
                            + ".clicks GROUP BY category",
                    202);
            JsonNode previewed = definition(probe, BY_CATEGORY).path("previewedPlan");

            post(
                    "CREATE MATERIALIZED TABLE "
                            + DB
                            + ".over_unplanned FRESHNESS = INTERVAL '5' MINUTE AS SELECT"
                            + " category, n FROM "
                            + BY_CATEGORY,
                    202);
            JsonNode overUnplanned = definition(probe, "default_catalog." + DB + ".over_unplanned");

            publishContinuousPlan(BY_CATEGORY);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    post("DESCRIBE MATERIALIZED TABLE " + BY_CATEGORY, 200)
                                            .then()
                                            .body(
                                                    "rows",
                                                    hasItem(List.of("plan.mode", "CONTINUOUS"))));
            post(
                    "CREATE MATERIALIZED TABLE "
                            + DB
                            + ".over_planned FRESHNESS = INTERVAL '5' MINUTE AS SELECT category,"
                            + " n FROM "
                            + BY_CATEGORY,
                    202);
            JsonNode overPlanned =
                    definition(probe, "default_catalog." + DB + ".over_planned")
                            .path("previewedPlan");

            assertThat(previewed.path("plan").path("table").asText()).isEqualTo(BY_CATEGORY);
            assertThat(previewed.path("plan").path("definitionVersion").asLong()).isEqualTo(1);
            assertThat(previewed.path("plan").path("mode").asText()).isEqualTo("CONTINUOUS");
            assertThat(previewed.path("plan").path("changelogMode").asText()).isEqualTo("[I,UA]");
            assertThat(previewed.path("upstreamVersions").size()).isZero();
            assertThat(previewed.path("settings").asText())
                    .isEqualTo(PlannerSettings.defaults().toContract());
            assertThat(overUnplanned.has("previewedPlan"))
                    .as("its upstream's plan not seen yet: planner-service plans it")
                    .isFalse();
            assertThat(overPlanned.path("upstreamVersions").path(BY_CATEGORY).asLong())
                    .isEqualTo(1);
            assertThat(overPlanned.path("plan").path("status").asText()).isEqualTo("ACTIVE");
        }
    }

    private static JsonNode definition(TopicProbe probe, String table) throws Exception {
        return JSON.readTree(
                probe.await(
                                r ->
                                        table.equals(r.key())
                                                && Contracts.TABLE_DEFINED_V1
                                                        .type()
                                                        .equals(
                                                                TopicProbe.header(
                                                                        r, EventHeaders.TYPE)),
                                Duration.ofSeconds(60))
                        .value());
    }
}
