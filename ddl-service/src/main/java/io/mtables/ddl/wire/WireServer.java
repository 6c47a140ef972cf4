package io.mtables.ddl.wire;

import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.security.Callers;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.jboss.logging.Logger;

/**
 * The PostgreSQL wire-protocol endpoint (docs/clients.md): a socket of its own ({@code
 * mt.wire.port}, 5433), a thread per connection up to {@code mt.wire.max-connections}. Blocking
 * sockets, not Vert.x: every statement blocks anyway (the catalog is one writer, reads wait on the
 * warehouse), the protocol is one request at a time per connection, and a blocking write holds back
 * a client that reads slowly without a buffer in between. A port that cannot be bound fails the
 * start.
 */
@ApplicationScoped
public class WireServer {

    private static final Logger LOG = Logger.getLogger(WireServer.class);

    /** Room beside the largest statement for a message's other fields (a Bind's parameters). */
    private static final int MESSAGE_OVERHEAD = 64 * 1024;

    private final WireConfig config;
    private final TlsConfigurationRegistry tlsConfigurations;
    private final Callers callers;
    private final WireStatements statements;
    private final int largestMessage;
    private final Map<Integer, WireConnection> connections = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService connectionThreads =
            Executors.newCachedThreadPool(
                    task -> {
                        Thread thread =
                                new Thread(task, "wire-connection-" + threads.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
    private Optional<SSLContext> tls = Optional.empty();
    private ServerSocket listener;

    public WireServer(
            WireConfig config,
            TlsConfigurationRegistry tlsConfigurations,
            Callers callers,
            WireStatements statements,
            DdlConfig ddl) {
        this.config = config;
        this.tlsConfigurations = tlsConfigurations;
        this.callers = callers;
        this.statements = statements;
        this.largestMessage = ddl.maxStatementBytes() + MESSAGE_OVERHEAD;
    }

    void onStart(@Observes StartupEvent start) throws Exception {
        if (!config.enabled()) {
            LOG.info("the PostgreSQL wire protocol is off (mt.wire.enabled=false)");
            return;
        }
        Optional<TlsConfiguration> named = tlsConfigurations.get(config.tlsConfigurationName());
        if (named.isPresent()) {
            tls = Optional.of(named.get().createSSLContext());
        } else if (config.plaintext() == WireConfig.Plaintext.NOBODY) {
            throw new IllegalStateException(
                    "mt.wire.plaintext=nobody, and there is no TLS configuration named '"
                            + config.tlsConfigurationName()
                            + "' (quarkus.tls.\""
                            + config.tlsConfigurationName()
                            + "\".key-store.pem.*): no client could connect. Give it a certificate"
                            + " (docs/clients.md), or set mt.wire.enabled=false");
        }
        listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(config.host(), config.port()));
        Thread acceptor = new Thread(this::accept, "wire-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        LOG.infof(
                "PostgreSQL clients: %s:%d (TLS %s; without TLS: %s)",
                config.host(),
                port(),
                tls.isPresent() ? "offered" : "not configured",
                config.plaintext().name().toLowerCase(java.util.Locale.ROOT));
    }

    void onStop(@Observes ShutdownEvent stop) throws IOException {
        if (listener != null) {
            listener.close();
        }
        connections.values().forEach(WireConnection::close);
        connectionThreads.shutdownNow();
    }

    /** The port clients connect to (the bound one when {@code mt.wire.port} is 0). */
    public int port() {
        return listener == null ? -1 : listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    // Out of file descriptors, say: not in a tight loop.
                    LOG.errorf("the PostgreSQL endpoint could not accept a connection: %s", e);
                    pause();
                }
                continue;
            }
            try {
                socket.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(socket);
                continue;
            }
            if (connections.size() >= config.maxConnections()) {
                refuse(socket);
                continue;
            }
            WireConnection connection = newConnection(socket);
            connectionThreads.execute(connection);
        }
    }

    private WireConnection newConnection(Socket socket) {
        while (true) {
            int processId = random.nextInt(1, Integer.MAX_VALUE);
            WireConnection connection =
                    new WireConnection(this, statements, socket, processId, random.nextInt());
            if (connections.putIfAbsent(processId, connection) == null) {
                return connection;
            }
        }
    }

    private void refuse(Socket socket) {
        try (socket) {
            WireOutput out = new WireOutput(socket.getOutputStream());
            out.send(
                    WireReplies.error(
                            "FATAL",
                            new Reply.Failed(
                                    SqlStates.TOO_MANY_CONNECTIONS,
                                    "sorry, too many clients already ("
                                            + config.maxConnections()
                                            + ", mt.wire.max-connections)",
                                    null,
                                    null,
                                    -1),
                            0));
            out.flush();
        } catch (IOException e) {
            LOG.debugf("could not refuse a PostgreSQL client: %s", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // gone already
        }
    }

    Optional<SSLContext> tls() {
        return tls;
    }

    boolean plaintextAllowedFrom(InetAddress client) {
        return switch (config.plaintext()) {
            case ANYONE -> true;
            case LOOPBACK -> client.isLoopbackAddress();
            case NOBODY -> false;
        };
    }

    int largestMessage() {
        return largestMessage;
    }

    Optional<SecurityIdentity> authenticate(String token) {
        return token.isBlank() ? Optional.empty() : callers.authenticate("Bearer " + token);
    }

    /** A cancel request: honoured only with the connection's secret key. */
    void cancel(int processId, int secretKey) {
        WireConnection connection = connections.get(processId);
        if (connection != null && connection.secretKey == secretKey) {
            connection.cancel();
        }
    }

    void forget(WireConnection connection) {
        connections.remove(connection.processId);
    }
}
