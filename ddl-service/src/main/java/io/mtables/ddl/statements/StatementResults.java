package io.mtables.ddl.statements;

import io.mtables.ddl.infra.NewestEntries;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.SealedRows;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.SecretKey;
import org.jboss.logging.Logger;

/**
 * The statements' results by request id, and the result log they are written to ({@code
 * mt.ddl.results}): the newest {@code mt.ddl.results-kept} results, the positions of the commands
 * answered, the changes read back under their request ids, and the results the log has not taken
 * yet, written again oldest first until it does. {@link StatementService} calls it under its lock.
 */
final class StatementResults {

    private static final Logger LOG = Logger.getLogger(StatementResults.class);

    /** The sealed rows a result on the log may carry: below the producer's 1 MiB record. */
    static final int LARGEST_ROWS_BYTES = 900_000;

    /** A query sent as a command without a key to seal its rows with. */
    static final String QUERY_NEEDS_RESULT_KEY = "QueryNeedsResultKey";

    private final KafkaLog log;

    /** The newest results by request id (the log keeps them all). */
    private final NewestEntries<String, StatementResult> byRequest;

    /**
     * The positions ({@code topic-partition@offset}) of the commands whose result is in the result
     * log or pending: a command redelivered after a crash or a rebalance is not answered twice.
     */
    private final NewestEntries<String, Boolean> answeredCommands;

    /** The table each request id read back from the definitions log changed. */
    private final NewestEntries<String, String> changesByRequest;

    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();
    private volatile String lastWriteFailure = "not tried yet";

    /** A result to write, with the position of the command it answers (null for none). */
    private record Pending(StatementResult result, String command) {}

    StatementResults(KafkaLog log, int kept) {
        this.log = log;
        this.byRequest = new NewestEntries<>(kept);
        this.answeredCommands = new NewestEntries<>(kept);
        this.changesByRequest = new NewestEntries<>(kept);
    }

    Optional<StatementResult> get(String requestId) {
        return byRequest.get(requestId);
    }

    boolean contains(String requestId) {
        return byRequest.containsKey(requestId);
    }

    /** The table {@code requestId} changed, when its change was read back but not its result. */
    Optional<String> changedBy(String requestId) {
        return changesByRequest.get(requestId);
    }

    /** A result read back from the log, and the position of the command it answered (or null). */
    void remember(StatementResult result, String command) {
        byRequest.put(result.requestId(), result);
        if (command != null) {
            answeredCommands.add(command, true);
        }
    }

    /** A change read back under {@code requestId}. */
    void rememberChange(String requestId, String table) {
        changesByRequest.put(requestId, table);
    }

    /** Takes over the results {@code previous} had not written yet (a catalog read back). */
    void takePending(StatementResults previous) {
        previous.pending.forEach(
                next -> {
                    byRequest.putIfAbsent(next.result().requestId(), next.result());
                    if (next.command() != null) {
                        answeredCommands.add(next.command(), true);
                    }
                    pending.add(next);
                });
        previous.pending.clear();
    }

    /**
     * {@code result} as the result log carries it: a query's rows sealed with {@code rowsKey}, the
     * key its command gave (the log is read by every client principal, so never in the clear). A
     * query without a key is refused ({@code QueryNeedsResultKey}), and so is one whose sealed rows
     * are larger than the log takes in one record ({@code ResultTooLarge}): a result the log
     * refused would stay first in line and hold up every result after it.
     */
    StatementResult onTheLog(StatementResult result, SecretKey rowsKey) {
        if (result.rows() == null) {
            return result;
        }
        if (rowsKey == null) {
            return StatementResult.failed(
                            result.requestId(),
                            StatementError.of(
                                    QUERY_NEEDS_RESULT_KEY,
                                    "A query's rows are never written to "
                                            + Topics.DDL_RESULTS
                                            + " in the clear: every client principal reads it.",
                                    "the query over REST or the PostgreSQL protocol, or a command"
                                            + " with the header '"
                                            + EventHeaders.RESULT_KEY
                                            + "' (a 256-bit AES key, base64), whose rows then come"
                                            + " sealed with it (docs/topics.md)"),
                            result.processedAt())
                    .by(result.principal());
        }
        String sealed;
        try {
            sealed = SealedRows.seal(result.rows(), result.requestId(), rowsKey);
        } catch (RuntimeException e) {
            LOG.errorf(e, "sealing the rows of request %s", result.requestId());
            return StatementResult.failed(
                            result.requestId(),
                            StatementError.of(
                                    StatementService.INTERNAL_ERROR,
                                    "The service could not seal the rows ("
                                            + e.getClass().getSimpleName()
                                            + "); the cause is in ddl-service's log under request "
                                            + result.requestId()
                                            + ".",
                                    null),
                            result.processedAt())
                    .by(result.principal());
        }
        if (sealed.length() <= LARGEST_ROWS_BYTES) {
            return result.sealed(sealed);
        }
        return StatementResult.failed(
                        result.requestId(),
                        StatementError.of(
                                WarehouseReader.RESULT_TOO_LARGE,
                                "The rows come to "
                                        + sealed.length()
                                        + " bytes sealed, more than a result on mt.ddl.results"
                                        + " holds ("
                                        + LARGEST_ROWS_BYTES
                                        + "): a SELECT sent as a command, or to a standby, answers"
                                        + " that much at most.",
                                "a narrower SELECT, or the active instance's REST or PostgreSQL"
                                        + " port"),
                        result.processedAt())
                .by(result.principal());
    }

    /** Whether the command at {@code command} had no answer yet; from now on it has one. */
    boolean answering(String command) {
        return answeredCommands.add(command, true);
    }

    /**
     * Records {@code result}, the answer to the command at {@code command} (or null), and writes
     * it.
     */
    void record(StatementResult result, String command) {
        byRequest.put(result.requestId(), result);
        if (command != null) {
            answeredCommands.add(command, true);
        }
        pending.add(new Pending(result, command));
        write();
    }

    /**
     * Queues an earlier result to be written again, for a command that sent its request id again.
     */
    void writeAgain(StatementResult earlier, String command) {
        pending.add(new Pending(earlier, command));
    }

    /** Writes the results Kafka did not take yet, oldest first; stops at the first it refuses. */
    void write() {
        while (!pending.isEmpty()) {
            Pending next = pending.peek();
            try {
                log.append(
                        Contracts.STATEMENT_RESULT_V1,
                        next.result().requestId(),
                        next.result(),
                        next.command() == null
                                ? Map.of()
                                : Map.of(EventHeaders.COMMAND, next.command()));
            } catch (RuntimeException e) {
                // Not acknowledged (the broker away), or refused (a producer that lost its state
                // with a broker that crashed): the change is made, so its result is kept and
                // written again; readiness is down meanwhile.
                lastWriteFailure = e.getMessage();
                LOG.warnf(
                        "%d statement result(s) not written yet, retried: %s",
                        pending.size(), e.getMessage());
                return;
            }
            pending.remove();
        }
    }

    int pendingCount() {
        return pending.size();
    }

    String lastWriteFailure() {
        return lastWriteFailure;
    }
}
