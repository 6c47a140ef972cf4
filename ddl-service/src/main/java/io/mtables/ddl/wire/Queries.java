package io.mtables.ddl.wire;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A connection's queries once it is authenticated: the simple protocol (Query: one or more
 * statements, each answered, the first error ending the rest) and the extended one (Parse, Bind,
 * Describe, Execute, Sync, Close, Flush; after an error everything up to Sync is skipped). A portal
 * runs its statement once and hands its rows out in as many Executes as the client's row limit
 * takes (a JDBC fetch size); Describe of a portal runs a query then, so that its columns can be
 * described, and never runs a change before Execute.
 */
final class Queries {

    /** Prepared statements, and portals, one connection may hold (each portal holds its rows). */
    static final int MOST_PER_CONNECTION = 100;

    /**
     * Portals of one connection that may hold a cursor at once: the service's cursors are shared by
     * every client (QueryRunner), so one client's open portals must not take them all. A read past
     * it is read whole (up to mt.ddl.read-max-rows).
     */
    static final int MOST_CURSORS = 4;

    /** A parsed statement: its text and its parameters' declared types (0: unspecified). */
    private record Prepared(String query, int[] parameterTypes) {}

    /** A bound statement, its reply once run, and how many of its rows went out. */
    private static final class Portal {
        final String statement;
        final short[] resultFormats;
        Reply reply;
        long sent;
        boolean noticesSent;

        Portal(String statement, short[] resultFormats) {
            this.statement = statement;
            this.resultFormats = resultFormats;
        }

        /** Lets go of what the portal holds: its cursor over rows not sent yet. */
        void release() {
            if (reply instanceof Reply.Rows rows) {
                rows.release();
            }
        }
    }

    private final WireConnection connection;
    private final WireOutput out;
    private final Map<String, Prepared> prepared = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    private boolean skippingToSync;

    Queries(WireConnection connection) {
        this.connection = connection;
        this.out = connection.out();
    }

    void serve(WireInput in) throws IOException {
        while (true) {
            // Only a connection that waits for its client is idle: a message already sent (a
            // pipelined Execute) is no reason to drop a cancel that came meanwhile.
            connection.awaitingMessage(!in.hasBuffered());
            WireInput.Payload message = in.next();
            connection.awaitingMessage(false);
            if (message == null) {
                return;
            }
            if (skippingToSync && message.type != 'S' && message.type != 'X') {
                continue;
            }
            switch (message.type) {
                case 'Q' -> simpleQuery(message.cstring());
                case 'P' -> parse(message);
                case 'B' -> bind(message);
                case 'D' -> describe(message);
                case 'E' -> execute(message);
                case 'C' -> close(message);
                case 'H' -> out.flush();
                case 'S' -> sync();
                case 'X' -> {
                    return;
                }
                default ->
                        throw new WireProtocolException(
                                "a message of type '" + message.type + "', which is not a query's");
            }
        }
    }

    private void simpleQuery(String query) throws IOException {
        List<SqlText.Piece> pieces = SqlText.split(query);
        if (pieces.isEmpty()) {
            out.send(new WireOutput.Message('I'));
        }
        for (SqlText.Piece piece : pieces) {
            Reply reply = connection.run(piece.text(), true);
            Portal portal = new Portal(piece.text(), new short[0]);
            portal.reply = reply;
            boolean sent;
            try {
                if (reply instanceof Reply.Rows rows) {
                    out.send(
                            WireReplies.rowDescription(
                                    rows.columns(), formats(rows.columns(), portal)));
                }
                sent = sendResult(portal, 0, piece.offset());
            } finally {
                portal.release(); // also when the client went away part way
            }
            if (!sent) {
                break;
            }
        }
        connection.readyForQuery();
    }

    private void parse(WireInput.Payload message) throws IOException {
        String name = message.cstring();
        String query = message.cstring();
        int declared = message.int16() & 0xFFFF;
        int used;
        try {
            used = SqlText.parameterCount(query);
        } catch (IllegalArgumentException tooMany) {
            fail(Reply.Failed.of(SqlStates.PROTOCOL_VIOLATION, tooMany.getMessage()));
            return;
        }
        int[] types = new int[Math.max(declared, used)];
        for (int i = 0; i < declared; i++) {
            types[i] = message.int32();
        }
        if (!name.isEmpty() && prepared.containsKey(name)) {
            fail(Reply.Failed.of("42P05", "prepared statement \"" + name + "\" already exists"));
            return;
        }
        if (prepared.size() >= MOST_PER_CONNECTION) {
            fail(tooMany("prepared statements"));
            return;
        }
        if (SqlText.split(query).size() > 1) {
            fail(
                    Reply.Failed.of(
                            SqlStates.SYNTAX_ERROR,
                            "cannot insert multiple commands into a prepared statement"));
            return;
        }
        prepared.put(name, new Prepared(query, types));
        out.send(new WireOutput.Message('1'));
    }

    private void bind(WireInput.Payload message) throws IOException {
        String portalName = message.cstring();
        String statementName = message.cstring();
        Prepared statement = prepared.get(statementName);
        if (statement == null) {
            fail(noStatement(statementName));
            return;
        }
        short[] parameterFormats = shorts(message);
        int count = message.int16();
        if (count != statement.parameterTypes().length) {
            fail(
                    Reply.Failed.of(
                            SqlStates.PROTOCOL_VIOLATION,
                            "bind message supplies "
                                    + count
                                    + " parameters, but prepared statement \""
                                    + statementName
                                    + "\" requires "
                                    + statement.parameterTypes().length));
            return;
        }
        String[] literals = new String[count];
        for (int i = 0; i < count; i++) {
            int length = message.int32();
            byte[] value = length < 0 ? null : message.bytes(length);
            short format =
                    parameterFormats.length == 0
                            ? 0
                            : parameterFormats.length == 1
                                    ? parameterFormats[0]
                                    : parameterFormats[i];
            try {
                literals[i] = Parameters.literal(value, format, statement.parameterTypes()[i]);
            } catch (IllegalArgumentException invalid) {
                fail(
                        new Reply.Failed(
                                SqlStates.INVALID_PARAMETER_VALUE,
                                "parameter $" + (i + 1) + ": " + invalid.getMessage(),
                                null,
                                null,
                                -1));
                return;
            }
        }
        short[] resultFormats = shorts(message);
        if (!portalName.isEmpty() && portals.containsKey(portalName)) {
            fail(Reply.Failed.of("42P03", "portal \"" + portalName + "\" already exists"));
            return;
        }
        if (portals.size() >= MOST_PER_CONNECTION) {
            fail(tooMany("portals"));
            return;
        }
        String bound = SqlText.replaceParameters(statement.query(), number -> literals[number - 1]);
        Portal replaced = portals.put(portalName, new Portal(bound, resultFormats));
        if (replaced != null) {
            replaced.release(); // the unnamed portal, bound again
        }
        out.send(new WireOutput.Message('2'));
    }

    private void describe(WireInput.Payload message) throws IOException {
        char kind = (char) message.byte1();
        String name = message.cstring();
        if (kind == 'S') {
            Prepared statement = prepared.get(name);
            if (statement == null) {
                fail(noStatement(name));
                return;
            }
            WireOutput.Message parameters =
                    new WireOutput.Message('t').int16(statement.parameterTypes().length);
            for (int type : statement.parameterTypes()) {
                parameters.int32(type == 0 ? PgTypes.TEXT.oid : type);
            }
            out.send(parameters);
            // A query's columns are known only by running it: with NULL for each parameter (a
            // driver that prepares by name, as pgJDBC does from the fifth run, describes the
            // statement, not the portal).
            Portal described =
                    new Portal(
                            SqlText.replaceParameters(
                                    statement.query(),
                                    number ->
                                            "CAST(NULL AS "
                                                    + Parameters.dialectType(
                                                            statement.parameterTypes()[number - 1])
                                                    + ")"),
                            new short[0]);
            try {
                describeRows(described);
            } finally {
                described.release();
            }
            return;
        }
        Portal portal = portals.get(name);
        if (portal == null) {
            fail(noPortal(name));
            return;
        }
        describeRows(portal);
    }

    /** RowDescription for a query (run now), NoData for anything else (run at Execute). */
    private void describeRows(Portal portal) throws IOException {
        if (!WireStatements.isRead(portal.statement)) {
            out.send(new WireOutput.Message('n'));
            return;
        }
        if (portal.reply == null) {
            portal.reply = connection.run(portal.statement, cursorsHeld() < MOST_CURSORS);
        }
        if (portal.reply instanceof Reply.Rows rows) {
            out.send(WireReplies.rowDescription(rows.columns(), formats(rows.columns(), portal)));
        } else if (portal.reply instanceof Reply.Failed failed) {
            fail(failed);
        } else {
            out.send(new WireOutput.Message('n'));
        }
    }

    private void execute(WireInput.Payload message) throws IOException {
        String name = message.cstring();
        int limit = message.int32();
        Portal portal = portals.get(name);
        if (portal == null) {
            fail(noPortal(name));
            return;
        }
        if (portal.statement.isBlank()) {
            out.send(new WireOutput.Message('I'));
            return;
        }
        if (portal.reply == null) {
            portal.reply = connection.run(portal.statement, cursorsHeld() < MOST_CURSORS);
        }
        if (!sendResult(portal, limit, 0)) {
            skippingToSync = true;
        }
    }

    private void close(WireInput.Payload message) throws IOException {
        char kind = (char) message.byte1();
        String name = message.cstring();
        if (kind == 'S') {
            prepared.remove(name);
        } else {
            Portal closed = portals.remove(name);
            if (closed != null) {
                closed.release();
            }
        }
        out.send(new WireOutput.Message('3'));
    }

    private void sync() throws IOException {
        skippingToSync = false;
        if (connection.session().transaction == Session.Transaction.IDLE) {
            releasePortals(); // a portal lives as long as its transaction
        }
        connection.readyForQuery();
    }

    /**
     * Sends a portal's notices, then up to {@code limit} of its rows (0: all) and PortalSuspended
     * when rows remain, or its CommandComplete, or its error; false when it failed.
     */
    private boolean sendResult(Portal portal, int limit, int base) throws IOException {
        if (portal.reply instanceof Reply.Failed failed) {
            out.send(WireReplies.error("ERROR", failed, base));
            connection.session().failed();
            return false;
        }
        if (!portal.noticesSent) {
            portal.noticesSent = true;
            List<String> notices =
                    portal.reply instanceof Reply.Rows rows
                            ? rows.notices()
                            : ((Reply.Done) portal.reply).notices();
            for (String notice : notices) {
                out.send(WireReplies.notice(notice));
            }
        }
        if (portal.reply instanceof Reply.Done done) {
            out.send(WireReplies.commandComplete(done.tag()));
            return true;
        }
        Reply.Rows rows = (Reply.Rows) portal.reply;
        PgTypes[] types = WireReplies.types(rows.columns());
        short[] formats = formats(rows.columns(), portal);
        for (int sentNow = 0; limit <= 0 || sentNow < limit; sentNow++) {
            List<Object> row;
            try {
                row = nextRow(rows, portal.sent);
            } catch (RuntimeException readFailed) {
                // The read of the table failed part way (its files went): the rows sent stand.
                rows.release();
                portal.reply = Reply.Failed.of(SqlStates.IO_ERROR, readFailed(portal, readFailed));
                return sendResult(portal, 0, base);
            }
            if (row == null) {
                break;
            }
            if (connection.cancelRequested()) {
                rows.release();
                Reply.Failed canceled =
                        Reply.Failed.of(
                                SqlStates.QUERY_CANCELED,
                                "canceling statement due to user request");
                portal.reply = canceled; // an Execute after it gets the same error
                out.send(WireReplies.error("ERROR", canceled, 0));
                connection.session().failed();
                return false;
            }
            out.send(WireReplies.dataRow(types, row, formats));
            portal.sent++;
        }
        boolean more;
        try {
            more =
                    rows.cursor() != null
                            ? rows.cursor().hasNext()
                            : portal.sent < rows.rows().size();
        } catch (RuntimeException readFailed) {
            rows.release();
            portal.reply = Reply.Failed.of(SqlStates.IO_ERROR, readFailed(portal, readFailed));
            return sendResult(portal, 0, base);
        }
        if (more) {
            out.send(new WireOutput.Message('s'));
        } else {
            String done = "SELECT " + portal.sent;
            out.send(WireReplies.commandComplete(done));
            rows.release();
            portal.reply = new Reply.Done(done, List.of()); // its rows are not held any longer
        }
        return true;
    }

    /** The portal's next row to send, from its cursor or its held rows; null after the last. */
    private static List<Object> nextRow(Reply.Rows rows, long sent) {
        if (rows.cursor() != null) {
            return rows.cursor().next();
        }
        return sent < rows.rows().size() ? rows.rows().get((int) sent) : null;
    }

    private static String readFailed(Portal portal, RuntimeException e) {
        return "the read of the table failed after "
                + portal.sent
                + " rows (its files were removed under it: a query change's switch-over or"
                + " snapshot expiry): "
                + e.getMessage();
    }

    private long cursorsHeld() {
        return portals.values().stream()
                .filter(portal -> portal.reply instanceof Reply.Rows rows && rows.cursor() != null)
                .count();
    }

    /** Lets go of every portal (the transaction ended, or the connection). */
    void releasePortals() {
        portals.values().forEach(Portal::release);
        portals.clear();
    }

    private static short[] formats(List<ResultColumn> columns, Portal portal) {
        return WireReplies.formats(columns, portal.resultFormats);
    }

    private static Reply.Failed noStatement(String name) {
        return Reply.Failed.of(
                SqlStates.UNDEFINED_PREPARED_STATEMENT,
                "prepared statement \"" + name + "\" does not exist");
    }

    private static Reply.Failed noPortal(String name) {
        return Reply.Failed.of(
                SqlStates.UNDEFINED_CURSOR, "portal \"" + name + "\" does not exist");
    }

    private static Reply.Failed tooMany(String what) {
        return new Reply.Failed(
                SqlStates.PROGRAM_LIMIT_EXCEEDED,
                "a connection holds at most " + MOST_PER_CONNECTION + " " + what,
                null,
                "close the ones done with (Close), or end the transaction block",
                -1);
    }

    private void fail(Reply.Failed failed) throws IOException {
        out.send(WireReplies.error("ERROR", failed, 0));
        connection.session().failed();
        skippingToSync = true;
    }

    private static short[] shorts(WireInput.Payload message) {
        short[] values = new short[message.int16()];
        for (int i = 0; i < values.length; i++) {
            values[i] = message.int16();
        }
        return values;
    }
}
