package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.ddl.infra.DdlRuntime;
import io.mtables.ddl.statements.StatementService;
import io.mtables.schemas.Topics;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Mutated statements, seeded and repeatable (2,000 over REST and 2,000 over the command topic in
 * the build, about 55 s; -Dfuzz.rest, -Dfuzz.kafka and -Dfuzz.seed change that, and 10,000 of each
 * ran clean when the counts were cut for the build's time): whatever the input, no server error, no
 * change to the catalog from a refused statement, and a command consumer that answers every command
 * in order.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class StatementFuzzIT {

    private static final int REST_STATEMENTS = Integer.getInteger("fuzz.rest", 2_000);
    private static final int KAFKA_STATEMENTS = Integer.getInteger("fuzz.kafka", 2_000);
    private static final long SEED = Long.getLong("fuzz.seed", 20261129L);
    private static final String DB = "fuzz_" + UUID.randomUUID().toString().substring(0, 8);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<String> SEEDS =
            List.of(
                    "CREATE TABLE $db.orders (id BIGINT, ds STRING, amount DECIMAL(10, 2), PRIMARY"
                            + " KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen')",
                    "CREATE MATERIALIZED TABLE $db.s1 PARTITIONED BY (ds) FRESHNESS = INTERVAL '5'"
                            + " MINUTE AS SELECT ds, count(*) AS n, sum(amount) AS total FROM"
                            + " $db.orders GROUP BY ds",
                    "CREATE MATERIALIZED TABLE $db.s2 (PRIMARY KEY (id) NOT ENFORCED) COMMENT 'c'"
                        + " DISTRIBUTED BY HASH(id) INTO 4 BUCKETS PARTITIONED BY (ds) WITH"
                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd') FRESHNESS ="
                        + " INTERVAL '1' HOUR REFRESH_MODE = FULL AS SELECT id, ds FROM $db.orders",
                    "CREATE OR ALTER MATERIALIZED TABLE $db.s3 FRESHNESS = INTERVAL '30' SECOND"
                        + " REFRESH_MODE = AUTO AS SELECT id, amount FROM $db.orders WHERE amount >"
                        + " 10",
                    "ALTER MATERIALIZED TABLE $db.s1 SET FRESHNESS = INTERVAL '1' HOUR",
                    "ALTER MATERIALIZED TABLE $db.s1 SET ('file.format' = 'parquet')",
                    "ALTER MATERIALIZED TABLE $db.s1 RESET ('file.format')",
                    "ALTER MATERIALIZED TABLE $db.s1 SUSPEND",
                    "ALTER MATERIALIZED TABLE $db.s1 RESUME WITH ('table.exec.state.ttl' = '1 h')",
                    "ALTER MATERIALIZED TABLE $db.s1 AS SELECT ds, count(*) AS n, sum(amount) AS"
                            + " total, max(amount) AS m FROM $db.orders GROUP BY ds",
                    "DROP MATERIALIZED TABLE IF EXISTS $db.s3",
                    "DROP TABLE IF EXISTS $db.nothing",
                    "SHOW MATERIALIZED TABLES LIKE 's%'",
                    "SHOW TABLES FROM $db",
                    "DESCRIBE MATERIALIZED TABLE $db.s2",
                    "DESC $db.orders");

    private static final List<String> WORDS =
            List.of(
                    "SELECT",
                    "FROM",
                    "AS",
                    "WITH",
                    "FRESHNESS",
                    "INTERVAL",
                    "REFRESH_MODE",
                    "FULL",
                    "AUTO",
                    "CONTINUOUS",
                    "PARTITIONED",
                    "BY",
                    "PRIMARY",
                    "KEY",
                    "DROP",
                    "ALTER",
                    "TABLE",
                    "MATERIALIZED",
                    "TEMPORARY",
                    "OR",
                    "'0'",
                    "'-1'",
                    "'99999999999'",
                    "NULL",
                    "''",
                    "MONTH",
                    "DAY",
                    "(",
                    ")",
                    ",",
                    ";",
                    "`",
                    "*",
                    "$db.orders");
    private static final String CHARS = "()',;`=.*-0 \n\t\"\\é漢\u0000%_";

    @Inject DdlRuntime runtime;

    @Test
    void restNeverFailsOnBadInputAndRefusedStatementsChangeNothing() {
        DialectIT.awaitReady();
        Random random = new Random(SEED);
        for (String seed : SEEDS) {
            post(seed.replace("$db", DB));
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REST_STATEMENTS; i++) {
            String statement = mutate(random);
            long before = changes();
            int status = post(statement);
            statuses.merge(status, 1, Integer::sum);
            if (status >= 500) {
                failures.add(status + " for: " + statement);
            } else if (status >= 400 && changes() != before) {
                failures.add("refused with " + status + " but changed the catalog: " + statement);
            }
        }
        System.out.printf(
                "fuzz REST seed=%d statements=%d statuses=%s%n", SEED, REST_STATEMENTS, statuses);
        assertThat(failures).isEmpty();
        assertThat(statuses.keySet())
                .allMatch(
                        status ->
                                status == 200
                                        || status == 202
                                        || status == 400
                                        || status == 404
                                        || status == 409);
    }

    @Test
    void theCommandTopicAnswersEveryMutatedCommand() throws Exception {
        DialectIT.awaitReady();
        Random random = new Random(SEED + 1);
        Set<String> waiting = new HashSet<>();
        try (TopicProbe probe = new TopicProbe().tail(Topics.DDL_RESULTS)) {
            String run = UUID.randomUUID().toString().substring(0, 8);
            for (int i = 0; i < KAFKA_STATEMENTS; i++) {
                String key = "fuzz-" + run + "-" + i;
                String value =
                        i % 10 == 0
                                ? mutate(random)
                                : JSON.writeValueAsString(Map.of("statement", mutate(random)));
                probe.send(Topics.DDL_COMMANDS, key, value, StatementRequests.CREDENTIALS);
                waiting.add(key);
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (!waiting.isEmpty() && System.nanoTime() < deadline) {
                var result = probe.await(r -> true, Duration.ofMinutes(2));
                waiting.remove(result.key());
            }
        }
        System.out.printf(
                "fuzz Kafka seed=%d commands=%d unanswered=%d%n",
                SEED + 1, KAFKA_STATEMENTS, waiting.size());
        assertThat(waiting).as("commands without a result").isEmpty();
    }

    private static String mutate(Random random) {
        String text = SEEDS.get(random.nextInt(SEEDS.size())).replace("$db", DB);
        int operations = 1 + random.nextInt(3);
        for (int i = 0; i < operations; i++) {
            text = mutateOnce(text, random);
        }
        return text;
    }

    private static String mutateOnce(String text, Random random) {
        if (text.isEmpty()) {
            return WORDS.get(random.nextInt(WORDS.size()));
        }
        List<String> tokens = new ArrayList<>(List.of(text.split(" ")));
        int at = random.nextInt(tokens.size());
        int position = random.nextInt(text.length());
        switch (random.nextInt(7)) {
            case 0 -> {
                return text.substring(0, position) + text.substring(position + 1);
            }
            case 1 -> {
                return text.substring(0, position)
                        + CHARS.charAt(random.nextInt(CHARS.length()))
                        + text.substring(position);
            }
            case 2 -> tokens.remove(at);
            case 3 -> tokens.add(at, tokens.get(at));
            case 4 -> {
                if (at + 1 < tokens.size()) {
                    tokens.set(at, tokens.set(at + 1, tokens.get(at)));
                }
            }
            case 5 -> tokens.set(at, WORDS.get(random.nextInt(WORDS.size())).replace("$db", DB));
            default -> {
                return text.substring(0, position);
            }
        }
        return String.join(" ", tokens);
    }

    private long changes() {
        return runtime.withService(StatementService::catalogChanges);
    }

    private static int post(String statement) {
        return StatementRequests.caller()
                .contentType(ContentType.JSON)
                .body(Map.of("statement", statement))
                .post("/api/v1/statements")
                .statusCode();
    }
}
