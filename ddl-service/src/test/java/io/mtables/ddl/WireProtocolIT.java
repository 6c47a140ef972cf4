package io.mtables.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.ddl.wire.WireServer;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * The PostgreSQL wire protocol (issue 48), driven by clients no one here wrote: pgJDBC (the
 * extended protocol, a fetch size, prepared parameters, its SQLSTATEs, DatabaseMetaData), psql (the
 * simple protocol, scripted with -f, its caret under an error, its backslash commands, and {@code
 * \\d} typed into it through tmux), psycopg 3 and node-postgres (their own scripts in
 * src/test/resources/wire/clients), over TLS with an API key as the password.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class WireProtocolIT {

    private static final Path CERTIFICATE = Path.of("src/test/resources/wire/test-wire-cert.pem");
    private static final Path CLIENTS = Path.of("src/test/resources/wire/clients").toAbsolutePath();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Inject WireServer wire;

    private String db;

    @BeforeEach
    void ready() {
        DialectIT.awaitReady();
        db = "wire_" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void jdbcOverVerifiedTlsCreatesTablesAndReadsRows() throws Exception {
        try (Connection connection =
                        connect("sslmode=verify-full&sslrootcert=" + CERTIFICATE.toAbsolutePath());
                Statement statement = connection.createStatement()) {
            assertThat(connection.getMetaData().getDatabaseProductVersion()).startsWith("15");
            declareDaily(statement);

            try (ResultSet rows =
                    statement.executeQuery("SELECT ds, n FROM " + db + ".daily ORDER BY ds")) {
                assertThat(rows.getMetaData().getColumnTypeName(1)).isIn("varchar", "text");
                assertThat(rows.getMetaData().getColumnTypeName(2)).isEqualTo("int8");
                List<String> read = new ArrayList<>();
                while (rows.next()) {
                    read.add(rows.getString("ds") + "=" + rows.getLong("n"));
                }
                assertThat(read).containsExactly("2026-11-27=3", "2026-11-28=5", "2026-11-29=7");
            }
            try (PreparedStatement byDay =
                    connection.prepareStatement(
                            "SELECT n FROM " + db + ".daily WHERE ds = ? AND n > ?")) {
                byDay.setString(1, "2026-11-28");
                byDay.setLong(2, 4);
                try (ResultSet rows = byDay.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getLong(1)).isEqualTo(5);
                    assertThat(rows.next()).isFalse();
                }
                byDay.setString(1, "x' OR '1' = '1");
                try (ResultSet rows = byDay.executeQuery()) {
                    assertThat(rows.next()).as("a parameter is a value, never SQL").isFalse();
                }
            }
            try (PreparedStatement commented =
                    connection.prepareStatement(
                            "SELECT ds FROM " + db + ".daily WHERE n > 0-? AND ds = ?")) {
                // Unbracketed, -1 after the minus would open a comment that the newline ends.
                commented.setLong(1, -1);
                commented.setString(2, "x\n OR TRUE --");
                try (ResultSet rows = commented.executeQuery()) {
                    assertThat(rows.next()).as("a parameter is a value, never SQL").isFalse();
                }
            }
            try (PreparedStatement quarters =
                    connection.prepareStatement(
                            "SELECT ds, CAST(n AS DECIMAL(10, 2)) / 4 AS quarter FROM "
                                    + db
                                    + ".daily WHERE n >= ? ORDER BY ds")) {
                // From the fifth run pgJDBC prepares by name, describes the statement rather than
                // the portal, and asks for binary values.
                for (int run = 1; run <= 8; run++) {
                    quarters.setLong(1, 5);
                    try (ResultSet rows = quarters.executeQuery()) {
                        assertThat(rows.getMetaData().getColumnTypeName(2)).isEqualTo("numeric");
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getBigDecimal("quarter")).isEqualByComparingTo("1.25");
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getBigDecimal("quarter")).isEqualByComparingTo("1.75");
                        assertThat(rows.next()).as("run %d", run).isFalse();
                    }
                }
            }
            try (ResultSet rows = statement.executeQuery("DESCRIBE " + db + ".daily")) {
                assertThat(rows.next()).isTrue();
            }
        }
    }

    @Test
    void aSelectOfATablesRowsStreamsInBatchesOfTheFetchSize() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            declareDaily(statement);
            connection.setAutoCommit(false);
            statement.setFetchSize(2); // pulled from the table's read two rows per Execute
            for (int run = 0; run < 3; run++) {
                List<String> read = new ArrayList<>();
                try (ResultSet rows =
                        statement.executeQuery(
                                "SELECT d.ds AS days, n FROM " + db + ".daily d WHERE n > 1")) {
                    assertThat(rows.getMetaData().getColumnLabel(1)).isEqualTo("days");
                    assertThat(rows.getMetaData().getColumnTypeName(2)).isEqualTo("int8");
                    while (rows.next()) {
                        read.add(rows.getString("days") + "=" + rows.getLong("n"));
                        if (read.size() == 1) {
                            // A cancel while the connection is idle between two Executes (pgJDBC
                            // sends it only while a statement runs): forgotten, as PostgreSQL does.
                            connection
                                    .unwrap(org.postgresql.core.BaseConnection.class)
                                    .getQueryExecutor()
                                    .sendQueryCancel();
                        }
                    }
                }
                assertThat(read)
                        .containsExactlyInAnyOrder("2026-11-27=3", "2026-11-28=5", "2026-11-29=7");
                try (ResultSet rows =
                        statement.executeQuery("SELECT n FROM " + db + ".daily LIMIT 2 OFFSET 1")) {
                    int count = 0;
                    while (rows.next()) {
                        count++;
                    }
                    assertThat(count).isEqualTo(2);
                }
                connection.commit(); // the block's portals, and their reads, end here
            }
        }
    }

    @Test
    void aCancelRequestStopsAQueryStillBeingComputedAndTheConnectionGoesOn() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            declareDaily(statement);
            statement.executeUpdate(
                    "CREATE MATERIALIZED TABLE "
                            + db
                            + ".wide FRESHNESS = INTERVAL '1' HOUR AS SELECT ds, COUNT(*) AS n FROM"
                            + " "
                            + db
                            + ".visits GROUP BY ds");
            Map<String, Long> rows = new java.util.HashMap<>();
            for (long i = 0; i < 400; i++) {
                rows.put("d" + i, i);
            }
            SelectIT.writeAsTheJobManagerWould(db, "wide", rows);
            String wide = db + ".wide";
            var canceller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
            try {
                // 64 million rows joined before the count's one row: seconds of the engine's work.
                canceller.schedule(
                        () -> {
                            statement.cancel();
                            return null;
                        },
                        300,
                        TimeUnit.MILLISECONDS);
                assertThatThrownBy(
                                () ->
                                        statement.executeQuery(
                                                "SELECT COUNT(*) FROM "
                                                        + wide
                                                        + " a, "
                                                        + wide
                                                        + " b, "
                                                        + wide
                                                        + " c"))
                        .isInstanceOfSatisfying(
                                PSQLException.class,
                                e -> {
                                    assertThat(e.getSQLState()).isEqualTo("57014");
                                    // Stopped while computed, not when its one row was to be sent.
                                    assertThat(e.getServerErrorMessage().getDetail())
                                            .isEqualTo("reason: QueryCanceled");
                                });
            } finally {
                canceller.shutdownNow();
            }
            try (ResultSet after = statement.executeQuery("SELECT COUNT(*) FROM " + wide)) {
                assertThat(after.next()).isTrue();
                assertThat(after.getLong(1)).as("the connection goes on").isEqualTo(400);
            }
        }
    }

    @Test
    void aFetchSizeReadsRowsInBatchesInsideABlockThatRefusesChanges() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            for (int i = 0; i < 5; i++) {
                statement.executeUpdate(
                        "CREATE TABLE "
                                + db
                                + ".s"
                                + i
                                + " (a INT) WITH ('connector' = 'datagen')");
            }
            connection.setAutoCommit(false); // pgJDBC uses a fetch size only inside a transaction
            statement.setFetchSize(2);
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SHOW TABLES FROM " + db)) {
                while (rows.next()) {
                    String name = rows.getString(1);
                    tables.add(name.substring(name.lastIndexOf('.') + 1));
                }
            }
            assertThat(tables).containsExactlyInAnyOrder("s0", "s1", "s2", "s3", "s4");

            assertThatThrownBy(() -> statement.executeUpdate("DROP TABLE " + db + ".s0"))
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("cannot run inside a transaction block")
                    .extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("25001");
            connection.rollback();
            connection.setAutoCommit(true);
            try (ResultSet rows = statement.executeQuery("SHOW TABLES FROM " + db)) {
                int count = 0;
                while (rows.next()) {
                    count++;
                }
                assertThat(count).as("the refused DROP changed nothing").isEqualTo(5);
            }
        }
    }

    @Test
    void refusalsCarryTheirSqlStateAndPosition() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            PSQLException syntax =
                    (PSQLException)
                            catchSql(
                                    () ->
                                            statement.execute(
                                                    "CREATE TABLE "
                                                            + db
                                                            + ".t (a INT) WITH ('connector' ="
                                                            + " 'datagen'"));
            assertThat(syntax.getSQLState()).isEqualTo("42601");
            assertThat(syntax.getServerErrorMessage().getPosition()).isPositive();

            PSQLException missing =
                    (PSQLException)
                            catchSql(
                                    () ->
                                            statement.executeQuery(
                                                    "SELECT * FROM " + db + ".nowhere"));
            assertThat(missing.getSQLState()).isEqualTo("42P01");
            assertThat(missing.getServerErrorMessage().getDetail())
                    .isEqualTo("reason: TableNotFound");
            assertThat(missing.getServerErrorMessage().getPosition())
                    .as("under the table's name")
                    .isEqualTo("SELECT * FROM ".length() + 1);

            try (ResultSet rows = statement.executeQuery("SHOW MATERIALIZED TABLES")) {
                assertThat(rows.getMetaData().getColumnCount())
                        .isPositive(); // the connection lives on
            }
        }
    }

    @Test
    void aWrongTokenOrPlaintextFromElsewhereIsRefused() {
        Properties wrong = new Properties();
        wrong.setProperty("user", "tests");
        wrong.setProperty("password", "mtk.tests.not-the-key");
        wrong.setProperty("sslmode", "require");
        assertThatThrownBy(() -> DriverManager.getConnection(url(""), wrong).close())
                .isInstanceOf(PSQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("28P01");
    }

    @Test
    void psqlRunsAScriptAndDrawsItsCaret() throws Exception {
        Path script = Files.createTempFile("wire", ".sql");
        Files.writeString(
                script,
                "CREATE TABLE "
                        + db
                        + ".orders (id BIGINT, amount DECIMAL(10, 2)) WITH ('connector' ="
                        + " 'datagen');\n"
                        + "SHOW TABLES FROM "
                        + db
                        + ";\n"
                        + "SELECT table_name FROM information_schema.materialized_tables WHERE"
                        + " table_name = 'nothing';\n"
                        + "CREATE MATERIALIZED TABLE "
                        + db
                        + ".m FRESHNESS = INTERVAL '1' HOUR AS SELECT id FROM "
                        + db
                        + ".nowhere;\n");
        String output = psql("-f", script.toString());

        assertThat(output)
                .contains("CREATE TABLE")
                .contains(db + ".orders | SOURCE_TABLE")
                .contains("(1 row)")
                .contains("(0 rows)")
                .contains("ERROR:  ")
                .contains("'nowhere' not found")
                .containsPattern("LINE 1: .*FROM wire_");
        List<String> lines = output.lines().toList();
        int quoted =
                lines.indexOf(
                        lines.stream()
                                .filter(l -> l.startsWith("LINE 1:"))
                                .findFirst()
                                .orElseThrow());
        assertThat(lines.get(quoted + 1).indexOf('^'))
                .as("the caret under the unknown table's name")
                .isEqualTo(lines.get(quoted).indexOf("FROM wire_") + "FROM ".length());
    }

    @Test
    void psqlListsAndDescribesWithItsBackslashCommands() throws Exception {
        declareDaily();
        declareKeyed();
        String output =
                psql(
                        "-c", "\\l",
                        "-c", "\\dn",
                        "-c", "\\dt " + db + ".*",
                        "-c", "\\d " + db + ".keyed",
                        "-c", "\\d+ " + db + ".daily");

        assertThat(output)
                .doesNotContain("ERROR")
                .contains("List of databases")
                .contains(" default_catalog ")
                .contains("List of schemas")
                .containsPattern(db + " +\\| daily +\\| table")
                .containsPattern(db + " +\\| keyed +\\| table")
                .containsPattern(db + " +\\| visits +\\| table")
                .contains("Table \"" + db + ".keyed\"")
                .containsPattern("id +\\| bigint +\\| +\\| not null")
                .containsPattern("name +\\| text")
                .contains("\"keyed_pkey\" PRIMARY KEY, btree (id)")
                .contains("Table \"" + db + ".daily\"")
                .containsPattern("n +\\| bigint")
                .contains("Access method: paimon");
    }

    @Test
    void psqlDescribesATableInteractively() throws Exception {
        declareDaily();
        String socket = "mt-wire-it";
        String session = db;
        run(
                "tmux",
                "-L",
                socket,
                "new-session",
                "-d",
                "-s",
                session,
                "-x",
                "160",
                "-y",
                "50",
                "-e",
                "PGPASSWORD=" + TestCredentials.API_KEY,
                "psql -X 'host=127.0.0.1 port="
                        + wire.port()
                        + " user=tests dbname=mtables sslmode=require'");
        try {
            String prompt = awaitScreen(socket, session, "mtables=>");
            assertThat(prompt).contains("SSL connection");
            run("tmux", "-L", socket, "send-keys", "-t", session, "\\d " + db + ".daily", "Enter");
            String screen = awaitScreen(socket, session, "Table \"" + db + ".daily\"");
            assertThat(screen).containsPattern("ds +\\| text").containsPattern("n +\\| bigint");
            run("tmux", "-L", socket, "send-keys", "-t", session, "\\q", "Enter");
        } finally {
            new ProcessBuilder("tmux", "-L", socket, "kill-session", "-t", session)
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void jdbcMetadataListsSchemasTablesColumnsAndKeys() throws Exception {
        declareDaily();
        declareKeyed();
        try (Connection connection = connect("sslmode=require")) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertThat(values(metadata.getSchemas(), "TABLE_SCHEM")).contains(db);
            assertThat(values(metadata.getCatalogs(), "TABLE_CAT")).contains("default_catalog");
            assertThat(
                            values(
                                    metadata.getTables(null, db, "%", new String[] {"TABLE"}),
                                    "TABLE_NAME"))
                    .containsExactly("daily", "keyed", "visits");
            List<String> columns = new ArrayList<>();
            try (ResultSet rows = metadata.getColumns(null, db, "keyed", null)) {
                while (rows.next()) {
                    columns.add(
                            rows.getString("COLUMN_NAME")
                                    + " "
                                    + rows.getString("TYPE_NAME")
                                    + " "
                                    + rows.getInt("DATA_TYPE")
                                    + " "
                                    + rows.getString("IS_NULLABLE"));
                }
            }
            assertThat(columns)
                    .containsExactly(
                            "id int8 " + Types.BIGINT + " NO",
                            "name text " + Types.VARCHAR + " YES");
            try (ResultSet keys = metadata.getPrimaryKeys(null, db, "keyed")) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getString("COLUMN_NAME")).isEqualTo("id");
                assertThat(keys.getInt("KEY_SEQ")).isEqualTo(1);
                assertThat(keys.getString("PK_NAME")).isEqualTo("keyed_pkey");
                assertThat(keys.next()).isFalse();
            }
        }
    }

    @Test
    void psycopgRunsItsScript() throws Exception {
        declareDaily();
        String output =
                client(
                        "psycopg 3 (Debian's python3-psycopg)",
                        "/usr/bin/python3",
                        CLIENTS.resolve("psycopg_client.py").toString());

        assertThat(output.lines())
                .containsExactly(
                        "tables daily,py_source,visits",
                        "columns ds:text,n:bigint",
                        "row 2026-11-28 5 int",
                        "error 42P01 15",
                        "count 3",
                        "refused 25001");
    }

    @Test
    void nodePostgresRunsItsScript() throws Exception {
        declareDaily();
        Path nodeModules = ROOT.resolve(".run/clients/node_modules");
        assertThat(nodeModules.resolve("pg"))
                .as("node-postgres, installed by bin/lib/test-clients.sh (bin/test runs it)")
                .isDirectory();
        String output =
                client(
                        "node-postgres",
                        Map.of("NODE_PATH", nodeModules.toString()),
                        "node",
                        CLIENTS.resolve("node_pg_client.js").toString());

        assertThat(output.lines())
                .containsExactly(
                        "rows 2026-11-27=3,2026-11-28=5,2026-11-29=7",
                        "param 7",
                        "error 42P01 15",
                        "tables daily,visits");
    }

    /** A source and a materialized table over it, with three rows as a refresh would write them. */
    private void declareDaily() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            declareDaily(statement);
        }
    }

    private void declareDaily(Statement statement) throws Exception {
        assertThat(
                        statement.executeUpdate(
                                "CREATE TABLE "
                                        + db
                                        + ".visits (id BIGINT, ds STRING) WITH ('connector' ="
                                        + " 'datagen')"))
                .as("a change's update count")
                .isZero();
        statement.executeUpdate(
                "CREATE MATERIALIZED TABLE "
                        + db
                        + ".daily FRESHNESS = INTERVAL '1' HOUR AS SELECT ds, COUNT(*) AS n FROM "
                        + db
                        + ".visits GROUP BY ds");
        SelectIT.writeAsTheJobManagerWould(
                db, "daily", Map.of("2026-11-27", 3L, "2026-11-28", 5L, "2026-11-29", 7L));
    }

    /** A source table with a primary key. */
    private void declareKeyed() throws Exception {
        try (Connection connection = connect("sslmode=require");
                Statement statement = connection.createStatement()) {
            statement.executeUpdate(
                    "CREATE TABLE "
                            + db
                            + ".keyed (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                            + " WITH ('connector' = 'datagen')");
        }
    }

    /** psql with {@code arguments}, connected over TLS with the token as the password. */
    private String psql(String... arguments) throws Exception {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                "psql",
                                "-X",
                                "-v",
                                "ON_ERROR_STOP=0",
                                "host=127.0.0.1 port="
                                        + wire.port()
                                        + " user=tests dbname=mtables sslmode=require"));
        command.addAll(List.of(arguments));
        ProcessBuilder psql = new ProcessBuilder(command).redirectErrorStream(true);
        psql.environment().put("PGPASSWORD", TestCredentials.API_KEY);
        Process process = psql.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
    }

    /** The tmux pane's text once it shows {@code expected}, within 30 seconds. */
    private static String awaitScreen(String socket, String session, String expected) {
        return Awaitility.await("the screen showing " + expected)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> screen(socket, session), screen -> screen.contains(expected));
    }

    private static String screen(String socket, String session) throws Exception {
        Process capture =
                new ProcessBuilder("tmux", "-L", socket, "capture-pane", "-p", "-t", session)
                        .redirectErrorStream(true)
                        .start();
        String screen = new String(capture.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        capture.waitFor(10, TimeUnit.SECONDS);
        return screen;
    }

    private static List<String> values(ResultSet rows, String column) throws SQLException {
        try (rows) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(column));
            }
            return values;
        }
    }

    private String client(String name, String... command) throws Exception {
        return client(name, Map.of(), command);
    }

    /** Runs a client's script (port, certificate, schema) with the token in MT_TOKEN. */
    private String client(String name, Map<String, String> environment, String... command)
            throws Exception {
        List<String> arguments = new ArrayList<>(List.of(command));
        arguments.addAll(
                List.of(
                        Integer.toString(wire.port()),
                        CERTIFICATE.toAbsolutePath().toString(),
                        db));
        ProcessBuilder builder = new ProcessBuilder(arguments).redirectErrorStream(true);
        builder.environment().put("MT_TOKEN", TestCredentials.API_KEY);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(name + " (installed by bin/lib/test-clients.sh) ended with:\n" + output)
                .isZero();
        return output;
    }

    private Connection connect(String options) throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", TestCredentials.ACCOUNT);
        credentials.setProperty("password", TestCredentials.API_KEY);
        return DriverManager.getConnection(url(options), credentials);
    }

    private String url(String options) {
        return "jdbc:postgresql://localhost:" + wire.port() + "/mtables?" + options;
    }

    private interface SqlCall {
        Object call() throws SQLException;
    }

    private static SQLException catchSql(SqlCall call) {
        try {
            call.call();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("expected an error");
    }
}
