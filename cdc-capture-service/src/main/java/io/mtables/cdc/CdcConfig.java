package io.mtables.cdc;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What cdc-capture-service captures, from where, and how ({@code mt.cdc.*}). */
@ConfigMapping(prefix = "mt.cdc")
public interface CdcConfig {

    Database database();

    /**
     * The tables to capture, as {@code schema.table} names or regular expressions, comma-separated
     * (Debezium's table.include.list). One string, split by {@link #includeList}: a list-typed
     * property would lose the backslashes of {@code public\..*} to SmallRye's escape handling.
     */
    String tables();

    /** {@link #tables()} split at its commas, each entry trimmed. */
    static List<String> includeList(String tables) {
        return Arrays.stream(tables.split(","))
                .map(String::strip)
                .filter(entry -> !entry.isEmpty())
                .toList();
    }

    /** Topics are named {@code <prefix>.<schema>.<table>}. */
    @WithDefault("cdc")
    String topicPrefix();

    /**
     * Partitions of a change topic the service creates; rows of one key always go to one partition.
     */
    @WithDefault("1")
    int topicPartitions();

    /**
     * The replication slot; one per capture service, it holds WAL until the service has read it.
     */
    @WithDefault("mt_cdc")
    String slotName();

    /** The publication of the captured tables (created and kept to the table list by Debezium). */
    @WithDefault("mt_cdc")
    String publication();

    /** The compacted topic where the positions read so far are kept across restarts. */
    @WithDefault("mt.cdc.offsets")
    String offsetsTopic();

    /**
     * How long one Kafka transaction of change events may stay open: the initial snapshot is one,
     * so it must finish within this (the broker's {@code transaction.max.timeout.ms} caps it, 15
     * minutes by default).
     */
    @WithDefault("15m")
    Duration transactionTimeout();

    /**
     * How often Debezium confirms the position read to PostgreSQL (the position itself is committed
     * to Kafka with every batch of change events).
     */
    @WithDefault("1s")
    Duration offsetFlushInterval();

    /**
     * How often the capture writes a heartbeat message into the WAL and commits the position read
     * so far, so the slot holds no WAL while the captured tables are idle (see DebeziumProperties).
     */
    @WithDefault("10s")
    Duration heartbeatInterval();

    /**
     * Set REPLICA IDENTITY FULL on captured tables that lack it: without it an update or delete
     * carries no complete before-image, and Flink's debezium-json cannot retract the old row.
     */
    @WithDefault("true")
    boolean replicaIdentityFull();

    /** Debezium's snapshot.mode: {@code initial} reads the tables once, then their changes. */
    @WithDefault("initial")
    String snapshotMode();

    /** Any other Debezium connector property, passed as given (it wins over ours). */
    Map<String, String> debezium();

    /** The PostgreSQL server. */
    interface Database {
        @WithDefault("127.0.0.1")
        String host();

        @WithDefault("5432")
        int port();

        @WithDefault("mt")
        String user();

        @WithDefault("mt")
        String password();

        @WithDefault("mt")
        String name();

        /**
         * TLS to the server, as libpq's {@code sslmode} (its values: disable, allow, prefer,
         * require, verify-ca, verify-full): {@code verify-full} checks the server's certificate
         * against {@link #sslrootcert} and its name against {@link #host}. Both the service's own
         * connection and Debezium's replication connection use it.
         */
        @WithDefault("prefer")
        SslMode sslmode();

        /**
         * The certificate (PEM) of the CA that signed the server's: required by verify-ca/-full.
         */
        Optional<String> sslrootcert();

        /** The JDBC driver's and Debezium's settings for {@link #sslmode}, checked. */
        default Map<String, String> tls() {
            if (sslmode().verifies() && sslrootcert().isEmpty()) {
                throw new IllegalArgumentException(
                        "mt.cdc.database.sslmode="
                                + sslmode().libpqName()
                                + " checks the server's certificate: set"
                                + " mt.cdc.database.sslrootcert to the file of the CA certificate"
                                + " (PEM) that signed it");
            }
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("sslmode", sslmode().libpqName());
            sslrootcert().ifPresent(file -> settings.put("sslrootcert", file));
            return settings;
        }
    }

    /** libpq's sslmode values. */
    enum SslMode {
        DISABLE,
        ALLOW,
        PREFER,
        REQUIRE,
        VERIFY_CA,
        VERIFY_FULL;

        public String libpqName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        boolean verifies() {
            return this == VERIFY_CA || this == VERIFY_FULL;
        }
    }
}
