package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mtables.testing.kafka.KafkaBroker;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The dialect, statement by statement, through the REST front door and the real broker: each case
 * is a statement and the exact outcome it must have, run in order against one catalog.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class DialectIT {

    /** A database of its own per run: the catalog on the shared broker outlives the test. */
    private static final String DB =
            "it_" + UUID.randomUUID().toString().substring(0, 8).replace("-", "");

    private static final String ORDERS =
            "CREATE TABLE "
                    + DB
                    + ".orders (\n"
                    + "  id BIGINT,\n"
                    + "  ds STRING,\n"
                    + "  category STRING,\n"
                    + "  amount DECIMAL(10, 2),\n"
                    + "  PRIMARY KEY (id) NOT ENFORCED\n"
                    + ") WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' ="
                    + " 'debezium-json', 'properties.bootstrap.servers' = '"
                    + KafkaBroker.bootstrapServers()
                    + "', 'scan.startup.mode' = 'earliest-offset')";

    /** Orders as appended events: a batch can read it, so FULL tables can be declared over it. */
    private static final String ORDERS_LOG =
            "CREATE TABLE "
                    + DB
                    + ".orders_log (id BIGINT NOT NULL, ds STRING, amount DECIMAL(10, 2)) WITH"
                    + " ('connector' = 'kafka', 'topic' = 'orders_log', 'format' = 'json',"
                    + " 'properties.bootstrap.servers' = '"
                    + KafkaBroker.bootstrapServers()
                    + "', 'scan.startup.mode' = 'earliest-offset')";

    private record Case(
            String statement,
            int status,
            String reason,
            String contains,
            Integer line,
            Integer column) {}

    private static Case ok(String statement, int status) {
        return new Case(statement, status, null, null, null, null);
    }

    private static Case ok(String statement, int status, String contains) {
        return new Case(statement, status, null, contains, null, null);
    }

    private static Case error(String statement, int status, String reason, String contains) {
        return new Case(statement, status, reason, contains, null, null);
    }

    private static Case errorAt(
            String statement, String reason, String contains, int line, int column) {
        return new Case(statement, 400, reason, contains, line, column);
    }

    /** An error on line 1 at the first occurrence of {@code token}. */
    private static Case errorAt(String statement, String reason, String contains, String token) {
        return new Case(statement, 400, reason, contains, 1, statement.indexOf(token) + 1);
    }

    private static String db(String sql) {
        return sql.replace("$db", DB);
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // Source tables
        cases.add(ok(ORDERS, 202, "Table default_catalog." + DB + ".orders created."));
        cases.add(error(ORDERS, 409, "TableAlreadyExists", "already exists"));
        cases.add(
                ok(
                        ORDERS.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"),
                        202,
                        "nothing changed"));
        cases.add(
                error(
                        db(
                                "CREATE TABLE $db.bad (a INT) WITH ('connector' = 'kafka', 'format'"
                                        + " = 'json')"),
                        400,
                        "InvalidStatement",
                        "Missing required options"));
        cases.add(
                error(
                        db("CREATE TABLE $db.bad2 (a INT) WITH ('connector' = 'nope')"),
                        400,
                        "InvalidOptionValue",
                        "Connector 'nope' is not allowed for a source table"));
        cases.add(
                error(
                        db("CREATE TEMPORARY TABLE $db.tmp (a INT) WITH ('connector' = 'datagen')"),
                        400,
                        "TemporaryObjectNotAllowed",
                        "Temporary"));
        cases.add(
                error(
                        "CREATE TEMPORARY VIEW v AS SELECT 1",
                        400,
                        "TemporaryObjectNotAllowed",
                        "Temporary"));
        cases.add(
                error(
                        db("CREATE TABLE $db.ctas AS SELECT * FROM $db.orders"),
                        400,
                        "UnsupportedStatement",
                        "materialized table"));
        cases.add(
                errorAt(
                        db("CREATE TABLE $db.broken (a INT"),
                        "SyntaxError",
                        "Encountered \"<EOF>\"",
                        1,
                        db("CREATE TABLE $db.broken (a INT").length()));
        cases.add(
                error(
                        db(
                                "CREATE TABLE other_catalog.$db.x (a INT) WITH ('connector' ="
                                        + " 'datagen')"),
                        400,
                        "UnknownCatalog",
                        "other_catalog"));
        cases.add(ok(ORDERS_LOG, 202, "created"));
        cases.add(ok("SHOW TABLES", 200));
        // Materialized tables: accepted forms
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.by_day PARTITIONED BY (ds) FRESHNESS"
                                    + " = INTERVAL '5' MINUTE AS SELECT ds, count(*) AS"
                                    + " order_count, sum(amount) AS total FROM $db.orders GROUP BY"
                                    + " ds"),
                        202,
                        "created"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.full_all (PRIMARY KEY (id) NOT"
                                    + " ENFORCED) COMMENT 'all orders' DISTRIBUTED BY HASH(id) INTO"
                                    + " 4 BUCKETS PARTITIONED BY (ds) WITH"
                                    + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd')"
                                    + " FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE = FULL AS SELECT"
                                    + " id, ds, amount FROM $db.orders_log"),
                        202,
                        "created"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.auto_mode FRESHNESS = INTERVAL '10'"
                                        + " SECOND REFRESH_MODE = AUTO AS SELECT id, category FROM"
                                        + " $db.orders"),
                        202));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.no_freshness AS SELECT category,"
                                        + " count(*) AS n FROM $db.orders GROUP BY category"),
                        202));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.cont FRESHNESS = INTERVAL '2' DAY"
                                    + " REFRESH_MODE = CONTINUOUS AS SELECT id FROM $db.orders"),
                        202));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.chained FRESHNESS = INTERVAL '1' DAY"
                                        + " AS SELECT ds, total FROM $db.by_day"),
                        202));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.full_minutes FRESHNESS = INTERVAL"
                                        + " '15' MINUTE REFRESH_MODE = FULL AS SELECT id FROM"
                                        + " $db.orders_log"),
                        202));
        // Shapes whose key can be NULL or is empty: keyed on a synthetic key, accepted
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.distinct_cat FRESHNESS = INTERVAL"
                                    + " '10' SECOND AS SELECT DISTINCT category FROM $db.orders"),
                        202,
                        "created"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.one_row FRESHNESS = INTERVAL '10'"
                                    + " SECOND AS SELECT count(*) AS n, sum(amount) AS total FROM"
                                    + " $db.orders"),
                        202,
                        "created"));
        // Refused at CREATE with the planner's reason, not accepted to be refused later
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.full_cdc FRESHNESS = INTERVAL '1'"
                                        + " HOUR REFRESH_MODE = FULL AS SELECT id FROM $db.orders"),
                        400,
                        "PlanRefused",
                        "cannot run as a batch"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.full_storm FRESHNESS = INTERVAL '30'"
                                        + " SECOND REFRESH_MODE = FULL AS SELECT id FROM"
                                        + " $db.orders_log"),
                        400,
                        "PlanRefused",
                        "FULL refreshes run at most once a minute"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.full_hours FRESHNESS = INTERVAL '8'"
                                        + " HOUR AS SELECT id FROM $db.orders"),
                        202));
        // Materialized tables: every rule
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE $db.cols (a INT, b INT) AS SELECT id, ds"
                                        + " FROM $db.orders"),
                        "ColumnListNotAllowed",
                        "derived from the query",
                        "a INT"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.p1 PARTITIONED BY (nope) AS SELECT"
                                        + " id, ds FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "Partition column 'nope' not defined in the query schema"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.k1 (PRIMARY KEY (nope) NOT ENFORCED)"
                                        + " AS SELECT id, ds FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "nope"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.k2 (PRIMARY KEY (ds) NOT ENFORCED)"
                                        + " AS SELECT id, ds FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "Could not create a PRIMARY KEY with nullable column 'ds'"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f1 FRESHNESS = INTERVAL '1' MONTH AS"
                                        + " SELECT id FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "SECOND, MINUTE, HOUR, DAY"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f2 FRESHNESS = INTERVAL '1' YEAR AS"
                                        + " SELECT id FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "SECOND, MINUTE, HOUR, DAY"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f3 FRESHNESS = INTERVAL '0' SECOND"
                                        + " AS SELECT id FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "positive integer"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f4 FRESHNESS = INTERVAL '-5' MINUTE"
                                        + " AS SELECT id FROM $db.orders"),
                        400,
                        "InvalidStatement",
                        "positive integer"));
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f5 FRESHNESS = INTERVAL '7' MINUTE"
                                        + " REFRESH_MODE = FULL AS SELECT id FROM $db.orders"),
                        "FreshnessNotACronPeriod",
                        "factors of 60",
                        "INTERVAL"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f6 FRESHNESS = INTERVAL '60' MINUTE"
                                        + " REFRESH_MODE = FULL AS SELECT id FROM $db.orders"),
                        400,
                        "FreshnessNotACronPeriod",
                        "less than 60"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f7 FRESHNESS = INTERVAL '5' HOUR AS"
                                        + " SELECT id FROM $db.orders"),
                        400,
                        "FreshnessNotACronPeriod",
                        "factors of 24"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f8 FRESHNESS = INTERVAL '2' DAY"
                                        + " REFRESH_MODE = FULL AS SELECT id FROM $db.orders"),
                        400,
                        "FreshnessNotACronPeriod",
                        "must be 1"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.f9 FRESHNESS = INTERVAL '45' SECOND"
                                        + " REFRESH_MODE = FULL AS SELECT id FROM $db.orders"),
                        400,
                        "FreshnessNotACronPeriod",
                        "factors of 60"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.d1 PARTITIONED BY (ds) WITH"
                                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd')"
                                        + " FRESHNESS = INTERVAL '1' MINUTE AS SELECT id, ds FROM"
                                        + " $db.orders"),
                        400,
                        "DateFormatterRequiresFullMode",
                        "only allowed in FULL refresh mode"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.d2 PARTITIONED BY (ds) WITH"
                                    + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd')"
                                    + " FRESHNESS = INTERVAL '1' HOUR REFRESH_MODE = CONTINUOUS AS"
                                    + " SELECT id, ds FROM $db.orders"),
                        400,
                        "DateFormatterRequiresFullMode",
                        "CONTINUOUS"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.d3 PARTITIONED BY (ds) WITH"
                                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd{{')"
                                        + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id, ds FROM"
                                        + " $db.orders"),
                        400,
                        "InvalidDateFormatter",
                        "not a valid date-time pattern"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.d4 PARTITIONED BY (id) WITH"
                                        + " ('partition.fields.id.date-formatter' = 'yyyy-MM-dd')"
                                        + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id, ds FROM"
                                        + " $db.orders"),
                        400,
                        "InvalidStatement",
                        "only supports referring to char, varchar and string type partition"
                                + " column"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.d5 WITH"
                                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd')"
                                        + " FRESHNESS = INTERVAL '1' HOUR AS SELECT id, ds FROM"
                                        + " $db.orders"),
                        400,
                        "InvalidStatement",
                        "isn't a partition column"));
        cases.add(
                errorAt(
                        db("CREATE MATERIALIZED TABLE $db.u1 AS SELECT nope FROM $db.orders"),
                        "InvalidStatement",
                        "Column 'nope' not found",
                        "nope"));
        cases.add(
                errorAt(
                        db("CREATE MATERIALIZED TABLE $db.u2 AS\nSELECT id\nFROM $db.missing"),
                        "InvalidStatement",
                        "Object 'missing' not found",
                        3,
                        6));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.o1 PARTITIONED BY (ds) DISTRIBUTED"
                                        + " BY HASH(id) INTO 2 BUCKETS AS SELECT id, ds FROM"
                                        + " $db.orders"),
                        202,
                        "created"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.o2 PARTITIONED BY (ds) DISTRIBUTED"
                                    + " INTO 3 BUCKETS FRESHNESS = INTERVAL '1' HOUR AS SELECT id,"
                                    + " ds FROM $db.orders"),
                        202,
                        "created"));
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE $db.o3 PARTITIONED BY (ds) DISTRIBUTED"
                                    + " BY HASH(id) INTO 2 BUCKETS AS SELECT nope FROM $db.orders"),
                        "InvalidStatement",
                        "Column 'nope' not found",
                        "nope"));
        cases.add(
                error(
                        db(
                                "CREATE MATERIALIZED TABLE $db.m1 REFRESH_MODE = SOMETIMES AS"
                                        + " SELECT id FROM $db.orders"),
                        400,
                        "SyntaxError",
                        "SOMETIMES"));
        cases.add(
                error(
                        db("CREATE MATERIALIZED TABLE $db.by_day AS SELECT ds FROM $db.orders"),
                        409,
                        "TableAlreadyExists",
                        "CREATE OR ALTER"));
        cases.add(
                error(
                        db("CREATE MATERIALIZED TABLE $db.orders AS SELECT ds FROM $db.orders"),
                        409,
                        "TableAlreadyExists",
                        "source table"));
        // The sandbox: table options outside the allow-list, and the system's reserved names
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE $db.unkept WITH ('write-only' = 'true')"
                                        + " AS SELECT ds FROM $db.orders"),
                        "OptionNotAllowed",
                        "Option 'write-only' is not allowed",
                        "'write-only'"));
        // Sources read topics of the configured cluster or generated rows, and a query sets no
        // table's options: another broker, a file, a system topic are refused.
        cases.add(
                errorAt(
                        db(
                                "CREATE TABLE $db.elsewhere (a INT) WITH ('connector' = 'kafka',"
                                    + " 'topic' = 't', 'format' = 'json',"
                                    + " 'properties.bootstrap.servers' = 'attacker.example:9092')"),
                        "InvalidOptionValue",
                        "names a Kafka cluster this server does not read sources from",
                        "'properties.bootstrap.servers'"));
        cases.add(
                errorAt(
                        db(
                                "CREATE TABLE $db.results (a INT) WITH ('connector' = 'kafka',"
                                        + " 'topic' = 'mt.ddl.results', 'format' = 'json',"
                                        + " 'properties.bootstrap.servers' = '"
                                        + KafkaBroker.bootstrapServers()
                                        + "')"),
                        "InvalidOptionValue",
                        "is the system's own",
                        "'topic'"));
        cases.add(
                errorAt(
                        db(
                                "CREATE TABLE $db.files (a INT) WITH ('connector' = 'filesystem',"
                                        + " 'path' = 'file:///etc/passwd', 'format' = 'csv')"),
                        "InvalidOptionValue",
                        "Connector 'filesystem' is not allowed",
                        "'connector'"));
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE $db.hinted AS SELECT ds FROM $db.orders"
                                        + " /*+ OPTIONS('connector' = 'filesystem') */"),
                        "OptionNotAllowed",
                        "/*+ OPTIONS(...) */",
                        "OPTIONS("));
        cases.add(
                error(
                        db("DESCRIBE MATERIALIZED TABLE $db.unkept"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        cases.add(
                errorAt(
                        db(
                                "CREATE MATERIALIZED TABLE mt_system.refresh_history AS SELECT ds"
                                        + " FROM $db.orders"),
                        "ReservedName",
                        "the schema mt_system holds the system's own tables",
                        "mt_system"));
        cases.add(ok("SHOW MATERIALIZED TABLES FROM mt_system", 200, "\"rows\":[]"));
        cases.add(ok("SELECT count(*) AS n FROM information_schema.refresh_history", 200));
        cases.add(
                error(
                        db("CREATE MATERIALIZED TABLE $db.self AS SELECT * FROM $db.self"),
                        400,
                        "InvalidStatement",
                        "not found"));
        // CREATE OR ALTER: idempotent, and an ALTER when the definition differs
        String byDay =
                db(
                        "CREATE OR ALTER MATERIALIZED TABLE $db.by_day PARTITIONED BY (ds)"
                                + " FRESHNESS = INTERVAL '5' MINUTE AS SELECT ds, count(*) AS"
                                + " order_count, sum(amount) AS total FROM $db.orders GROUP BY ds");
        cases.add(ok(byDay, 202, "already defined this way; nothing changed"));
        cases.add(ok(byDay.replace("'5' MINUTE", "'10' MINUTE"), 202, "altered"));
        cases.add(ok(byDay.replace("'5' MINUTE", "'10' MINUTE"), 202, "nothing changed"));
        cases.add(
                ok(
                        db(
                                "CREATE OR ALTER MATERIALIZED TABLE $db.fresh_one AS SELECT id FROM"
                                        + " $db.orders"),
                        202,
                        "created"));
        // ALTER
        cases.add(
                ok(
                        db("ALTER MATERIALIZED TABLE $db.by_day SET FRESHNESS = INTERVAL '1' HOUR"),
                        202,
                        "altered"));
        cases.add(
                errorAt(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day SET FRESHNESS = INTERVAL '1'"
                                        + " MONTH"),
                        "InvalidFreshness",
                        "MONTH",
                        "INTERVAL"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day SET FRESHNESS = INTERVAL '0'"
                                        + " MINUTE"),
                        400,
                        "InvalidFreshness",
                        "positive integer"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.full_minutes SET FRESHNESS = INTERVAL"
                                        + " '7' MINUTE"),
                        400,
                        "FreshnessNotACronPeriod",
                        "factors of 60"));
        cases.add(
                ok(
                        db("ALTER MATERIALIZED TABLE $db.by_day SET ('file.format' = 'parquet')"),
                        202,
                        "altered"));
        cases.add(
                ok(
                        db("ALTER MATERIALIZED TABLE $db.by_day RESET ('file.format')"),
                        202,
                        "altered"));
        cases.add(
                ok(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day SET"
                                        + " ('partition.fields.ds.date-formatter' = 'yyyy-MM-dd')"),
                        202,
                        "altered"));
        cases.add(
                ok(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day RESET"
                                        + " ('partition.fields.ds.date-formatter')"),
                        202,
                        "altered"));
        cases.add(
                ok(
                        db(
                                "CREATE MATERIALIZED TABLE $db.by_cat PARTITIONED BY (category)"
                                        + " FRESHNESS = INTERVAL '1' MINUTE AS SELECT category,"
                                        + " count(*) AS n FROM $db.orders GROUP BY category"),
                        202,
                        "created"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_cat SET"
                                        + " ('partition.fields.category.date-formatter' ="
                                        + " 'yyyy-MM-dd')"),
                        400,
                        "DateFormatterRequiresFullMode",
                        "CONTINUOUS"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_cat SET FRESHNESS = INTERVAL '45'"
                                        + " MINUTE"),
                        400,
                        "FreshnessNotACronPeriod",
                        "factors of 60"));
        cases.add(
                error(
                        db("CREATE MATERIALIZED TABLE $db.continuous AS SELECT id FROM $db.orders"),
                        400,
                        "SyntaxError",
                        "continuous"));
        cases.add(
                ok(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day AS SELECT ds, count(*) AS"
                                    + " order_count, sum(amount) AS total, max(amount) AS biggest"
                                    + " FROM $db.orders GROUP BY ds"),
                        202,
                        "altered"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day AS SELECT ds, count(*) AS"
                                        + " order_count FROM $db.orders GROUP BY ds"),
                        400,
                        "IncompatibleSchemaChange",
                        "Column 'total' (position 3) would be removed"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day AS SELECT ds, sum(amount) AS"
                                    + " total, count(*) AS order_count, max(amount) AS biggest FROM"
                                    + " $db.orders GROUP BY ds"),
                        400,
                        "IncompatibleSchemaChange",
                        "Column 2 would change"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day AS SELECT ds, count(*) AS"
                                    + " order_count, sum(amount) AS total, max(amount) AS biggest,"
                                    + " count(*) AS n FROM $db.orders GROUP BY ds"),
                        400,
                        "IncompatibleSchemaChange",
                        "'n' is NOT NULL"));
        cases.add(
                error(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day AS SELECT category AS ds,"
                                    + " count(*) AS order_count FROM $db.orders GROUP BY category"),
                        400,
                        "IncompatibleSchemaChange",
                        "removed"));
        cases.add(ok(db("ALTER MATERIALIZED TABLE $db.by_day SUSPEND"), 202, "suspended"));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.by_day SUSPEND"),
                        409,
                        "AlreadySuspended",
                        "already suspended"));
        // Options outside the allow-list are refused and change nothing: the table is still
        // suspended, so the RESUME after it resumes it.
        cases.add(
                errorAt(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day RESUME WITH ('pipeline.jars' ="
                                        + " 'file:///tmp/x.jar')"),
                        "OptionNotAllowed",
                        "'table.exec.state.ttl'",
                        "'pipeline.jars'"));
        cases.add(
                ok(
                        db(
                                "ALTER MATERIALIZED TABLE $db.by_day RESUME WITH"
                                        + " ('table.exec.state.ttl' = '1 d')"),
                        202,
                        "resumed"));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.by_day RESUME"),
                        409,
                        "NotSuspended",
                        "not suspended"));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.missing SUSPEND"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.orders SUSPEND"),
                        400,
                        "WrongTableKind",
                        "source table"));
        // REFRESH: a lifecycle command for the job manager
        cases.add(
                ok(
                        db("ALTER MATERIALIZED TABLE $db.full_all REFRESH"),
                        202,
                        "Refresh of default_catalog." + DB + ".full_all requested."));
        cases.add(
                ok(
                        db(
                                "ALTER MATERIALIZED TABLE $db.full_all REFRESH PARTITION (ds ="
                                        + " '2026-11-28')"),
                        202,
                        "partition {ds=2026-11-28}"));
        cases.add(
                errorAt(
                        db("ALTER MATERIALIZED TABLE $db.full_all REFRESH PARTITION (id = '1')"),
                        "NotAPartitionColumn",
                        "'id' is not a partition column",
                        "id ="));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.auto_mode REFRESH PARTITION (ds = '1')"),
                        400,
                        "NotAPartitionColumn",
                        "not partitioned"));
        cases.add(
                error(
                        db("ALTER MATERIALIZED TABLE $db.missing REFRESH"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        // Queries
        cases.add(ok("SHOW MATERIALIZED TABLES", 200));
        cases.add(ok(db("SHOW MATERIALIZED TABLES FROM $db LIKE 'by%'"), 200));
        cases.add(ok(db("DESCRIBE MATERIALIZED TABLE $db.by_day"), 200));
        cases.add(ok(db("DESC MATERIALIZED TABLE $db.full_all"), 200));
        cases.add(ok(db("DESCRIBE $db.orders"), 200));
        cases.add(
                error(
                        db("DESCRIBE MATERIALIZED TABLE $db.orders"),
                        400,
                        "WrongTableKind",
                        "source table"));
        cases.add(
                error(
                        db("DESCRIBE MATERIALIZED TABLE $db.missing"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        cases.add(
                ok(
                        db(
                                "SELECT table_name, refresh_mode, freshness, status FROM"
                                    + " information_schema.materialized_tables WHERE table_name ="
                                    + " 'default_catalog.$db.by_day'"),
                        200,
                        "INTERVAL '1' HOUR"));
        cases.add(
                ok(
                        "SELECT count(*) AS n FROM information_schema.materialized_tables WHERE"
                                + " status = 'ACTIVE'",
                        200));
        cases.add(
                ok(
                        "SELECT * FROM information_schema.materialized_tables ORDER BY table_name"
                                + " LIMIT 3",
                        200,
                        "measured_lag"));
        cases.add(
                error(
                        "SELECT nope FROM information_schema.materialized_tables",
                        400,
                        "InvalidStatement",
                        "nope"));
        cases.add(
                ok(
                        db(
                                "SELECT upstream_table, upstream_kind FROM"
                                    + " information_schema.table_dependencies WHERE table_name ="
                                    + " 'default_catalog.$db.chained'"),
                        200,
                        db("[[\"default_catalog.$db.by_day\",\"MATERIALIZED_TABLE\"]]")));
        cases.add(ok(db("SELECT * FROM $db.by_day WHERE ds > '2026' LIMIT 5"), 200));
        cases.add(
                error(
                        db("SELECT * FROM $db.orders"),
                        400,
                        "WrongTableKind",
                        "only materialized tables are read here"));
        cases.add(error("SELECT 1", 400, "UnsupportedStatement", "reads none"));
        cases.add(
                error(
                        db("SELECT * FROM $db.nothing_here"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        // DROP
        cases.add(error(db("DROP TABLE $db.orders"), 409, "TableInUse", "is read by"));
        cases.add(error(db("DROP MATERIALIZED TABLE $db.by_day"), 409, "TableInUse", "chained"));
        cases.add(
                error(
                        db("DROP TABLE $db.by_day"),
                        400,
                        "WrongTableKind",
                        "DROP MATERIALIZED TABLE"));
        cases.add(
                error(
                        db("DROP MATERIALIZED TABLE $db.orders"),
                        400,
                        "WrongTableKind",
                        "DROP TABLE"));
        cases.add(ok(db("DROP MATERIALIZED TABLE $db.chained"), 202, "dropped"));
        cases.add(
                error(
                        db("DROP MATERIALIZED TABLE $db.chained"),
                        404,
                        "TableNotFound",
                        "does not exist"));
        cases.add(ok(db("DROP MATERIALIZED TABLE IF EXISTS $db.chained"), 202, "nothing changed"));
        cases.add(ok(db("DROP TABLE IF EXISTS $db.never"), 202, "nothing changed"));
        // Outside the dialect
        cases.add(
                error(
                        "INSERT INTO t SELECT 1",
                        400,
                        "UnsupportedStatement",
                        "not part of the dialect"));
        cases.add(
                error(
                        "CREATE FUNCTION f AS 'x.Y'",
                        400,
                        "UnsupportedStatement",
                        "not part of the dialect"));
        cases.add(error("SELEKT 1", 400, "SyntaxError", "SELEKT"));
        cases.add(error(db("TABLE $db.orders"), 400, "WrongTableKind", "a stream"));
        return cases;
    }

    @Test
    void everyStatementHasItsExactOutcome() {
        awaitReady();
        List<String> failures = new ArrayList<>();
        for (Case c : cases()) {
            Response response = post(c.statement(), null);
            String body = response.asString();
            String problem = describe(c, response.statusCode(), body);
            if (problem != null) {
                failures.add(problem);
            }
        }
        assertThat(failures).as("cases whose outcome differs").isEmpty();
        assertThat(cases()).hasSizeGreaterThanOrEqualTo(80);
    }

    @Test
    void aRepeatedRequestIdReturnsTheFirstResultAndChangesNothing() {
        awaitReady();
        String requestId = "it-" + UUID.randomUUID();
        String create =
                db(
                        "CREATE TABLE IF NOT EXISTS $db.repeat_src (a INT) WITH ('connector' ="
                                + " 'datagen')");
        Response first = post(create, requestId);
        Response second = post(db("DROP TABLE $db.repeat_src"), requestId);

        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(second.statusCode()).isEqualTo(202);
        assertThat(second.jsonPath().getString("message"))
                .isEqualTo(first.jsonPath().getString("message"));
        assertThat(post(db("DESCRIBE $db.repeat_src"), null).statusCode()).isEqualTo(200);
        StatementRequests.caller().get("/api/v1/operations/" + requestId).then().statusCode(200);
        StatementRequests.caller()
                .get("/api/v1/operations/nope-" + requestId)
                .then()
                .statusCode(404);
    }

    private static String describe(Case c, int status, String body) {
        String json = body.replace("\\\"", "\"");
        if (status != c.status()) {
            return "[" + c.statement() + "] status " + status + " not " + c.status() + ": " + body;
        }
        if (c.reason() != null && !body.contains("\"title\":\"" + c.reason() + "\"")) {
            return "[" + c.statement() + "] reason is not " + c.reason() + ": " + body;
        }
        if (c.contains() != null && !json.contains(c.contains())) {
            return "[" + c.statement() + "] does not say '" + c.contains() + "': " + body;
        }
        if (c.line() != null
                && !(body.contains("\"line\":" + c.line() + ",")
                        && body.contains("\"column\":" + c.column() + ","))) {
            return "[" + c.statement() + "] not at " + c.line() + ":" + c.column() + ": " + body;
        }
        return null;
    }

    private static Response post(String statement, String requestId) {
        Map<String, Object> body =
                requestId == null
                        ? Map.of("statement", statement)
                        : Map.of("statement", statement, "requestId", requestId);
        return StatementRequests.caller()
                .contentType(ContentType.JSON)
                .body(body)
                .post("/api/v1/statements");
    }

    static void awaitReady() {
        await().atMost(Duration.ofSeconds(90))
                .until(
                        () ->
                                StatementRequests.management().get("/q/health/ready").statusCode()
                                        == 200);
    }
}
