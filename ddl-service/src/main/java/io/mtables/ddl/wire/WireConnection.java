package io.mtables.ddl.wire;

import io.mtables.ddl.statements.ReadCancellation;
import io.quarkus.security.identity.SecurityIdentity;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.BufferUnderflowException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.jboss.logging.Logger;

/**
 * One PostgreSQL client, from its start-up packet to its Terminate: TLS when it asks and the
 * endpoint has a certificate, authentication with a token as the password, then its queries in the
 * simple protocol ({@code Query}) or the extended one ({@link Queries}).
 */
final class WireConnection implements Runnable {

    private static final Logger LOG = Logger.getLogger(WireConnection.class);

    /** How long a client has to authenticate (PostgreSQL's authentication_timeout: 1 min). */
    private static final Duration STARTUP_PATIENCE = Duration.ofSeconds(30);

    private static final int PROTOCOL_3_0 = 196608;
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;
    private static final int CANCEL_REQUEST = 80877102;

    private final WireServer server;
    private final WireStatements statements;
    final int processId;
    final int secretKey;
    private Socket socket;
    private WireInput in;
    private WireOutput out;
    private boolean encrypted;
    private Session session;
    private Caller caller;
    private volatile boolean cancelRequested;
    private boolean awaitingMessage;

    WireConnection(
            WireServer server, WireStatements statements, Socket socket, int processId, int key) {
        this.server = server;
        this.statements = statements;
        this.socket = socket;
        this.processId = processId;
        this.secretKey = key;
    }

    @Override
    public void run() {
        try {
            // A client that does not authenticate in time gives its slot back.
            socket.setSoTimeout((int) STARTUP_PATIENCE.toMillis());
            // Unbuffered until TLS is settled: nothing after the request may be read ahead.
            in = new WireInput(socket.getInputStream(), server.largestMessage());
            out = new WireOutput(socket.getOutputStream());
            if (startUp()) {
                socket.setSoTimeout(0);
                Queries queries = new Queries(this);
                try {
                    queries.serve(in);
                } finally {
                    queries.releasePortals(); // open reads end with the connection
                }
            }
        } catch (WireProtocolException e) {
            fatal(SqlStates.PROTOCOL_VIOLATION, e.getMessage(), null);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            fatal(
                    SqlStates.PROTOCOL_VIOLATION,
                    "Protocol violation: a message shorter than its fields.",
                    null);
        } catch (SocketTimeoutException e) {
            fatal(
                    SqlStates.INVALID_AUTHORIZATION,
                    "no authentication within " + STARTUP_PATIENCE.toSeconds() + " s",
                    null);
        } catch (IOException e) {
            LOG.debugf("a PostgreSQL client's connection ended: %s", e);
        } catch (RuntimeException e) {
            LOG.errorf(e, "a PostgreSQL client's connection failed (process %d)", processId);
            fatal(
                    "XX000",
                    "internal error (ddl-service's log has it under process " + processId + ")",
                    null);
        } finally {
            close();
            server.forget(this);
        }
    }

    /** Whether the client is authenticated and ready for its first query. */
    private boolean startUp() throws IOException {
        Map<String, String> parameters = new HashMap<>();
        while (true) {
            WireInput.Payload packet = in.startup();
            if (packet == null) {
                return false;
            }
            int code = packet.int32();
            if (code == SSL_REQUEST) {
                Optional<SSLContext> tls = server.tls();
                if (tls.isPresent() && !encrypted) {
                    out.sendByte('S');
                    encrypt(tls.get());
                } else {
                    out.sendByte('N');
                }
            } else if (code == GSSENC_REQUEST) {
                out.sendByte('N');
            } else if (code == CANCEL_REQUEST) {
                server.cancel(packet.int32(), packet.int32());
                return false;
            } else if (code != PROTOCOL_3_0) {
                fatal(
                        SqlStates.FEATURE_NOT_SUPPORTED,
                        "unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xFFFF),
                        "protocol 3.0");
                return false;
            } else {
                for (String key = packet.cstring(); !key.isEmpty(); key = packet.cstring()) {
                    parameters.put(key, packet.cstring());
                }
                break;
            }
        }
        String user = parameters.getOrDefault("user", "");
        if (!encrypted && !server.plaintextAllowedFrom(socket.getInetAddress())) {
            fatal(
                    SqlStates.INVALID_AUTHORIZATION,
                    "this endpoint takes connections from "
                            + socket.getInetAddress().getHostAddress()
                            + " only over TLS",
                    "connect with sslmode=require (mt.wire.plaintext decides who may do without)");
            return false;
        }
        out.send(new WireOutput.Message('R').int32(3)); // a cleartext password: the token
        out.flush();
        WireInput.Payload password = in.next();
        if (password == null) {
            return false;
        }
        if (password.type != 'p') {
            throw new WireProtocolException(
                    "expected a password message, got '" + password.type + "'");
        }
        String token = password.cstring();
        Optional<SecurityIdentity> identity = server.authenticate(token);
        if (identity.isEmpty()) {
            fatal(
                    SqlStates.INVALID_PASSWORD,
                    "password authentication failed for user \"" + user + "\"",
                    "the password is a service account's API key (mtk.<account>.<secret>) or a JWT"
                            + " of the configured identity provider (docs/clients.md)");
            return false;
        }
        caller = Caller.of(identity.get(), token, clientAddress());
        session = new Session(caller.principal(), parameters.getOrDefault("application_name", ""));
        out.send(new WireOutput.Message('R').int32(0));
        for (Map.Entry<String, String> setting : session.settings.entrySet()) {
            out.send(
                    new WireOutput.Message('S')
                            .cstring(setting.getKey())
                            .cstring(setting.getValue()));
        }
        out.send(new WireOutput.Message('K').int32(processId).int32(secretKey));
        readyForQuery();
        return true;
    }

    private void encrypt(SSLContext context) throws IOException {
        SSLSocket tls =
                (SSLSocket)
                        context.getSocketFactory()
                                .createSocket(
                                        socket,
                                        socket.getInetAddress().getHostAddress(),
                                        socket.getPort(),
                                        true);
        tls.setUseClientMode(false);
        tls.startHandshake();
        socket = tls;
        encrypted = true;
        in = new WireInput(new BufferedInputStream(tls.getInputStream()), server.largestMessage());
        out = new WireOutput(tls.getOutputStream());
    }

    private String clientAddress() {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /**
     * Runs one statement of this connection's (a cancel request stops what runs when it comes): a
     * SELECT's rows come as a cursor when {@code mayStream}, otherwise read whole.
     */
    Reply run(String statement, boolean mayStream) {
        return ReadCancellation.whileCancellable(
                () -> cancelRequested, () -> statements.run(statement, caller, session, mayStream));
    }

    WireOutput out() {
        return out;
    }

    Session session() {
        return session;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    /**
     * Whether the connection waits for the client's next message: a cancel request then is ignored,
     * and one left from the message before is forgotten, as PostgreSQL ignores a cancel while it
     * reads a command (a client's next Execute of a portal is not cancelled by it).
     */
    synchronized void awaitingMessage(boolean awaiting) {
        awaitingMessage = awaiting;
        if (awaiting) {
            cancelRequested = false;
        }
    }

    synchronized void cancel() {
        if (!awaitingMessage) {
            cancelRequested = true;
        }
    }

    void readyForQuery() throws IOException {
        out.send(new WireOutput.Message('Z').byte1(session.transaction.status));
        out.flush();
    }

    /** Tells the client why it is disconnected; it may be gone already. */
    private void fatal(String sqlState, String message, String hint) {
        try {
            out.send(
                    WireReplies.error(
                            "FATAL", new Reply.Failed(sqlState, message, null, hint, -1), 0));
            out.flush();
        } catch (IOException | RuntimeException gone) {
            LOG.debugf("could not tell a PostgreSQL client %s: %s", message, gone);
        }
    }

    void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing more to tell anyone
        }
    }
}
