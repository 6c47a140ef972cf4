package io.mtables.cdc;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The machine's PostgreSQL (bin/postgres: wal_level=logical, role and database mt, TLS with a CA of
 * its own): a fresh schema {@code cdc_it} with the tables under test, and a slot, publication and
 * topics of this run only. The capture connects with {@code sslmode=verify-full}.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    static final String URL = "jdbc:postgresql://127.0.0.1:5432/" + env("MT_PG_DB", "mt");
    static final String SLOT = "mt_cdc_it";
    static final String TOPIC_PREFIX = "cdcit" + UUID.randomUUID().toString().substring(0, 8);
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    static final int BULK_ROWS = 5_000;
    static final Duration OFFSET_FLUSH = Duration.ofSeconds(1);

    /** The CA that signed the machine's PostgreSQL's certificate (bin/postgres makes both). */
    static final String CA =
            env("MT_TEST_PG_SSLROOTCERT", "/etc/postgresql/15/main/mtables-tls/ca.crt");

    @Override
    public Map<String, String> start() {
        execute(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE"
                        + " slot_name = '"
                        + SLOT
                        + "' AND NOT active",
                "DROP PUBLICATION IF EXISTS " + SLOT,
                "DROP SCHEMA IF EXISTS cdc_it CASCADE",
                "DROP SCHEMA IF EXISTS cdc_it_other CASCADE",
                "CREATE SCHEMA cdc_it",
                "CREATE SCHEMA cdc_it_other",
                "CREATE TABLE cdc_it.items (id BIGINT PRIMARY KEY, name TEXT, price NUMERIC(10, 2),"
                        + " d DATE, t TIME(6), ts TIMESTAMP(6), tstz TIMESTAMPTZ, flag BOOLEAN)",
                "CREATE TABLE cdc_it_other.noise (id BIGSERIAL PRIMARY KEY, payload TEXT)",
                "CREATE TABLE cdc_it.empty_at_start (id BIGINT PRIMARY KEY)",
                // Rows enough for a snapshot of several batches (Debezium's are 2,048 at most),
                // analyzed so that PostgreSQL has an estimate of them.
                "CREATE TABLE cdc_it.bulk (id BIGINT PRIMARY KEY)",
                "INSERT INTO cdc_it.bulk SELECT generate_series(1, " + BULK_ROWS + ")",
                "ANALYZE cdc_it.bulk",
                "INSERT INTO cdc_it.items VALUES (1, 'snapshot', 12.34, '2026-11-29',"
                        + " '10:15:30.123456', '2026-11-29 10:15:30.123456', '2026-11-29"
                        + " 10:15:30.123456+01', true)");
        return Map.of(
                "mt.cdc.database.sslmode",
                "verify-full",
                "mt.cdc.database.sslrootcert",
                CA,
                "mt.cdc.tables",
                "cdc_it\\..*",
                "mt.cdc.slot-name",
                SLOT,
                "mt.cdc.publication",
                SLOT,
                "mt.cdc.topic-prefix",
                TOPIC_PREFIX,
                "mt.cdc.offsets-topic",
                "mt.cdc.offsets." + TOPIC_PREFIX,
                "mt.cdc.heartbeat-interval",
                HEARTBEAT.toMillis() + "ms",
                "mt.cdc.offset-flush-interval",
                OFFSET_FLUSH.toMillis() + "ms");
    }

    @Override
    public void stop() {
        // The slot is dropped at the next start; it cannot be while the engine still holds it.
    }

    static void execute(String... statements) {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "PostgreSQL at "
                            + URL
                            + " (start it with bin/postgres start): "
                            + e.getMessage(),
                    e);
        }
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(
                URL, env("MT_PG_USER", "mt"), env("MT_PG_PASSWORD", "mt"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
