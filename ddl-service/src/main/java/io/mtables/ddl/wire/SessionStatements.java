package io.mtables.ddl.wire;

import io.mtables.ddl.pgcatalog.PgCatalogFunctions;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements PostgreSQL's clients send about their session rather than about tables, which the
 * door answers itself: SET and SHOW of a setting, RESET, and transaction blocks (BEGIN, COMMIT,
 * ROLLBACK: accepted around reads, which need no transaction; a change inside one is refused, since
 * the catalog has no transactions to roll it back), and a pool's {@code SELECT 1}. Everything else
 * goes to the dialect.
 */
final class SessionStatements {

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
    private static final String END = "\\s*;?\\s*\\z";
    private static final Pattern BEGIN =
            Pattern.compile("\\A\\s*(BEGIN|START\\s+TRANSACTION)\\b.*", FLAGS);
    private static final Pattern SAVEPOINTS =
            Pattern.compile(
                    "\\A\\s*(SAVEPOINT|RELEASE|ROLLBACK\\s+(WORK\\s+|TRANSACTION\\s+)?TO)\\b.*",
                    FLAGS);
    private static final Pattern COMMIT = Pattern.compile("\\A\\s*(COMMIT|END)\\b.*", FLAGS);
    private static final Pattern ROLLBACK = Pattern.compile("\\A\\s*(ROLLBACK|ABORT)\\b.*", FLAGS);
    private static final Pattern SET =
            Pattern.compile(
                    "\\A\\s*SET\\s+(?:SESSION\\s+|LOCAL\\s+)?([A-Za-z_][A-Za-z0-9_.]*)\\s*(?:=|\\s+TO\\s+)\\s*(.+?)"
                            + END,
                    FLAGS);
    private static final Pattern SET_TIME_ZONE =
            Pattern.compile("\\A\\s*SET\\s+(?:SESSION\\s+)?TIME\\s+ZONE\\s+(.+?)" + END, FLAGS);
    private static final Pattern RESET =
            Pattern.compile("\\A\\s*RESET\\s+([A-Za-z_][A-Za-z0-9_.]*)" + END, FLAGS);
    private static final Pattern SHOW =
            Pattern.compile("\\A\\s*SHOW\\s+([A-Za-z_][A-Za-z0-9_.]*)" + END, FLAGS);
    private static final Pattern NO_OPS =
            Pattern.compile(
                    "\\A\\s*(DISCARD\\s+ALL|DEALLOCATE\\b.*|UNLISTEN\\b.*|CLOSE\\s+ALL)" + END,
                    FLAGS);

    /** What connection pools send to check a connection (HikariCP's connectionTestQuery). */
    private static final Pattern SELECT_ONE = Pattern.compile("\\A\\s*SELECT\\s+1" + END, FLAGS);

    private static final Pattern VERSION =
            Pattern.compile(
                    "\\A\\s*SELECT\\s+(?:pg_catalog\\.)?version\\s*\\(\\s*\\)" + END, FLAGS);

    /** The session's database and user, as drivers and tools ask for them at connect. */
    private static final Pattern WHO =
            Pattern.compile(
                    "\\A\\s*SELECT\\s+(?:pg_catalog\\.)?(current_database\\s*\\(\\s*\\)|current_catalog"
                        + "|current_user|session_user)"
                            + END,
                    FLAGS);

    /** Settings SHOW answers besides the session's own; any other name goes to the dialect. */
    private static final Map<String, String> FIXED =
            Map.of(
                    "transaction_isolation", "read committed",
                    "default_transaction_read_only", "off",
                    "max_identifier_length", "63",
                    "search_path", "\"$user\", public");

    private final String version;

    SessionStatements(String version) {
        this.version = version;
    }

    /** The answer to {@code statement} when it is about the session, else empty. */
    Optional<Reply> answer(String statement, Session session) {
        if (BEGIN.matcher(statement).matches()) {
            if (session.transaction == Session.Transaction.IDLE) {
                session.transaction = Session.Transaction.BLOCK;
            }
            return done("BEGIN"); // in a block already (failed or not), it stays as it is
        }
        if (SAVEPOINTS.matcher(statement).matches()) {
            return Optional.of(
                    new Reply.Failed(
                            SqlStates.FEATURE_NOT_SUPPORTED,
                            "savepoints are not supported",
                            null,
                            "ROLLBACK the whole block: reads need none",
                            -1));
        }
        if (COMMIT.matcher(statement).matches()) {
            boolean failed = session.transaction == Session.Transaction.FAILED;
            session.transaction = Session.Transaction.IDLE;
            return done(failed ? "ROLLBACK" : "COMMIT");
        }
        if (ROLLBACK.matcher(statement).matches()) {
            session.transaction = Session.Transaction.IDLE;
            return done("ROLLBACK");
        }
        if (session.transaction == Session.Transaction.FAILED) {
            return Optional.of(
                    Reply.Failed.of(
                            SqlStates.IN_FAILED_TRANSACTION,
                            "current transaction is aborted, commands ignored until end of"
                                    + " transaction block"));
        }
        Matcher timeZone = SET_TIME_ZONE.matcher(statement);
        if (timeZone.matches()) {
            return set(session, "TimeZone", timeZone.group(1));
        }
        Matcher set = SET.matcher(statement);
        if (set.matches()) {
            return set(session, set.group(1), set.group(2));
        }
        Matcher reset = RESET.matcher(statement);
        if (reset.matches()) {
            return done("RESET");
        }
        Matcher show = SHOW.matcher(statement);
        if (show.matches()) {
            String name = show.group(1);
            String value =
                    Optional.ofNullable(session.setting(name))
                            .orElse(FIXED.get(name.toLowerCase(Locale.ROOT)));
            return value == null ? Optional.empty() : Optional.of(oneValue(name, value));
        }
        if (NO_OPS.matcher(statement).matches()) {
            return done(
                    statement.trim().split("\\s+")[0].toUpperCase(Locale.ROOT)
                            + (statement.toUpperCase(Locale.ROOT).contains(" ALL") ? " ALL" : ""));
        }
        if (SELECT_ONE.matcher(statement).matches()) {
            return Optional.of(
                    new Reply.Rows(
                            List.of(new ResultColumn("?column?", "INT")),
                            List.of(List.of(1)),
                            List.of()));
        }
        Matcher who = WHO.matcher(statement);
        if (who.matches()) {
            String asked = who.group(1).replaceAll("\\s", "").toLowerCase(Locale.ROOT);
            return Optional.of(
                    asked.endsWith("_user")
                            ? oneValue(asked, session.setting("session_authorization"))
                            : oneValue(asked.replace("()", ""), PgCatalogFunctions.databaseName()));
        }
        if (VERSION.matcher(statement).matches()) {
            return Optional.of(oneValue("version", version));
        }
        return Optional.empty();
    }

    private static Optional<Reply> set(Session session, String name, String rawValue) {
        String value = unquote(rawValue.trim());
        if (name.equalsIgnoreCase("client_encoding")
                && !value.equalsIgnoreCase("UTF8")
                && !value.equalsIgnoreCase("UTF-8")
                && !value.equalsIgnoreCase("UNICODE")) {
            return Optional.of(
                    new Reply.Failed(
                            SqlStates.FEATURE_NOT_SUPPORTED,
                            "client_encoding " + value + " is not supported",
                            null,
                            "UTF8, the only encoding mtables speaks",
                            -1));
        }
        session.set(name, value);
        return done("SET");
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        return value;
    }

    private static Reply oneValue(String column, String value) {
        return new Reply.Rows(
                List.of(new ResultColumn(column, "STRING")), List.of(List.of(value)), List.of());
    }

    private static Optional<Reply> done(String tag) {
        return Optional.of(new Reply.Done(tag, List.of()));
    }
}
