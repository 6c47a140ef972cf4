package io.mtables.ddl;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** EXPLAIN CREATE MATERIALIZED TABLE answers with the plan and its reasons, and changes nothing. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class ExplainIT {

  private static final String DB = "explain_" + UUID.randomUUID().toString().substring(0, 8);
  private static final String CLICKS =
      "CREATE TABLE IF NOT EXISTS " + DB + ".clicks (id BIGINT, category STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'clicks',"
          + " 'format' = 'json', 'properties.bootstrap.servers' = '127.0.0.1:9092', 'scan.startup.mode' = 'earliest-offset')";
  private static final String BY_CATEGORY = " AS SELECT category, COUNT(*) AS n FROM " + DB + ".clicks GROUP BY category";

  @Test
  void explainPlansWithoutCreating() {
    DialectIT.awaitReady();
    post(CLICKS, 202);

    post("EXPLAIN CREATE MATERIALIZED TABLE " + DB + ".by_category FRESHNESS = INTERVAL '5' MINUTE" + BY_CATEGORY, 200)
        .then()
        .body("rows", hasItem(List.of("change", "would create")))
        .body("rows", hasItem(List.of("plan.mode", "CONTINUOUS")))
        .body("rows", hasItem(List.of("plan.changelog_mode", "[I,UA]")))
        .body("rows", hasItem(List.of("plan.upsert_key", "__mt_key = NULL-safe encoding of (category), derived from the query")))
        .body("rows", hasItem(List.of("plan.reason.1", "CONTINUOUS because the freshness 5 min is below the threshold 30 min (materialized-table.refresh-mode.freshness-threshold).")))
        .body("rows", hasItem(hasItem("plan.warning.UnboundedState")));
    post("SHOW MATERIALIZED TABLES FROM " + DB, 200).then().body("rows", not(hasItem(List.of("by_category"))));
  }

  @Test
  void explainCreateOrAlterShowsTheNewPlanOfAnExistingTable() {
    DialectIT.awaitReady();
    post(CLICKS, 202);
    post("CREATE MATERIALIZED TABLE " + DB + ".hourly FRESHNESS = INTERVAL '5' MINUTE" + BY_CATEGORY, 202);

    post("EXPLAIN CREATE OR ALTER MATERIALIZED TABLE " + DB + ".hourly FRESHNESS = INTERVAL '1' HOUR" + BY_CATEGORY, 200)
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

    post("EXPLAIN SELECT 1", 400).then().body("title", org.hamcrest.Matchers.equalTo("UnsupportedStatement")).body("detail", org.hamcrest.Matchers.containsString("EXPLAIN is answered for CREATE [OR ALTER] MATERIALIZED TABLE only"));
    post("EXPLAIN CREATE MATERIALIZED TABLE " + DB + ".bad AS SELECT nope FROM " + DB + ".missing", 400);
  }

  private static io.restassured.response.Response post(String statement, int status) {
    var response = given().contentType(ContentType.JSON).body(Map.of("statement", statement)).post("/api/v1/statements");
    response.then().statusCode(status);
    return response;
  }
}
