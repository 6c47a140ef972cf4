package io.mtables.ddl.statements;

import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.SourceOptions;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.infra.SourceHistory;
import io.mtables.messaging.BrokerUnavailableException;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import javax.crypto.SecretKey;
import org.jboss.logging.Logger;

/**
 * Executes statements one at a time, so that each is validated against the catalog as the previous
 * one left it. A change is durable once it is in the definition log; only then does the catalog
 * take it. Every change and every failure is recorded under its request id, and a request id seen
 * before gets its first result back without anything being executed again.
 */
public class StatementService {

    private static final Logger LOG = Logger.getLogger(StatementService.class);

    /** The reason of a failure that is the service's fault, not the statement's (HTTP 500). */
    public static final String INTERNAL_ERROR = "InternalError";

    /** The reason of a change Kafka did not acknowledge (HTTP 503, retryable; nothing applied). */
    public static final String BROKER_UNAVAILABLE = "BrokerUnavailable";

    /** A request id another caller's statement has: refused, nothing done. */
    public static final String REQUEST_ID_IN_USE = "RequestIdInUse";

    private final FlinkSql flink;
    private final Catalog catalog;
    private final StatementRouter router;
    private final OutcomeWriter writer;
    private final DdlConfig config;
    private final QueryRunner queries;
    private final AccessControl access;
    private final Clock clock;

    private final StatementResults results;

    /** The position of the command {@link #executeCommand} is answering; null for a REST call. */
    private String answeringCommand;

    /** Who sent the statement being executed: recorded on its result. */
    private String answeringPrincipal;

    /** Told when a definition write failed in doubt: the catalog is read back from its log. */
    private Runnable onDefinitionInDoubt = () -> {};

    public StatementService(
            FlinkSql flink,
            Catalog catalog,
            ReadModels models,
            PlanPreview preview,
            StatementLogs logs,
            AccessControl access,
            SourceHistory sourceHistory,
            DdlConfig config,
            Clock clock) {
        this.flink = flink;
        this.catalog = catalog;
        this.router =
                new StatementRouter(
                        flink,
                        catalog,
                        models,
                        preview,
                        new SourceOptions(config.sourceKafkaBootstrapServers()),
                        sourceHistory,
                        access);
        this.writer = new OutcomeWriter(flink, catalog, logs, access);
        this.results = new StatementResults(logs.results(), config.resultsKept());
        this.config = config;
        this.queries = models.queries();
        this.access = access;
        this.clock = clock;
    }

    /** Told each statement's privilege-check time. */
    public void onAuthorized(Consumer<Duration> times) {
        router.onAuthorized(times);
    }

    /** On a definition write in doubt (see the field). */
    public void onDefinitionInDoubt(Runnable action) {
        this.onDefinitionInDoubt = action;
    }

    /** Whether {@code principal} may see {@code table} (any privilege on it), as SHOW decides. */
    public boolean sees(String principal, String table) {
        return catalog.find(table)
                .map(definition -> access.sees(principal, definition))
                .orElse(false);
    }

    /** The catalog as the statements executed so far left it. */
    public Catalog catalog() {
        return catalog;
    }

    /** How many catalog changes this instance has written since it started. */
    public long catalogChanges() {
        return writer.catalogChanges();
    }

    /**
     * Remembers a result read back from the result log at start, and the position of the command it
     * answered ({@code EventHeaders.COMMAND}; null for a REST statement's or an older result).
     */
    public void remember(StatementResult result, String command) {
        results.remember(result, command);
    }

    /**
     * Remembers that {@code requestId} changed {@code table} (a definition or a drop read back at
     * start): a request whose change was written but whose result was not (a crash, Kafka not
     * acknowledging the change in time) is answered with that change when it comes again, not
     * executed a second time.
     */
    public void rememberChange(String requestId, String table) {
        if (requestId != null) {
            results.rememberChange(requestId, table);
        }
    }

    /** Takes over the results {@code previous} had not written yet (a catalog read back). */
    public synchronized void takePendingResults(StatementService previous) {
        results.takePending(previous.results);
    }

    /**
     * The result recorded under {@code requestId}, if {@code principal} sent it: request ids are
     * scoped per caller, so guessing another's reads nothing.
     */
    public Optional<StatementResult> operation(String requestId, String principal) {
        return results.get(requestId).filter(result -> principal.equals(result.principal()));
    }

    /**
     * The result of {@code statement}, sent by {@code principal}; a repeated request id returns the
     * first result to the caller who sent it, and is refused ({@code RequestIdInUse}, recorded
     * nowhere) to anyone else. A SELECT over materialized tables is checked in the catalog's turn
     * and read after it ({@link QueryRunner}): no change waits for a read of the warehouse.
     */
    public StatementResult execute(String requestId, String statement, String principal) {
        Decision decision = decide(requestId, statement, principal);
        return stamped(
                decision.read() == null
                        ? decision.result()
                        : queries.run(requestId, decision.read(), clock),
                principal);
    }

    /**
     * As {@link #execute}, for a door that streams: a SELECT whose rows go straight from one table
     * to the answer comes as a cursor over them from {@code from} (the start, or where an earlier
     * page of the same statement ended), which the door closes.
     */
    public QueryAnswer answer(
            String requestId, String statement, String principal, ScanPosition from) {
        Decision decision = decide(requestId, statement, principal);
        if (decision.read() != null && decision.read().cursor() != null) {
            return queries.open(requestId, decision.read(), statement, from, clock, principal);
        }
        if (!from.isStart() && decision.read() != null) {
            return QueryAnswer.of(
                    StatementRefusals.noPages(requestId, clock.instant())
                            .by(principal)); // refused before any read
        }
        StatementResult result =
                stamped(
                        decision.read() == null
                                ? decision.result()
                                : queries.run(requestId, decision.read(), clock),
                        principal);
        if (!from.isStart() && result.status() == StatementResult.Status.SUCCEEDED) {
            return QueryAnswer.of(
                    StatementRefusals.noPages(requestId, clock.instant()).by(principal));
        }
        return QueryAnswer.of(result);
    }

    /** The result as its sender's: only they read it by its request id (a standby checks). */
    private static StatementResult stamped(StatementResult result, String principal) {
        return result.principal() == null ? result.by(principal) : result;
    }

    /**
     * What the catalog's turn decided: a result, or a read to run after it; {@code answered} when
     * the result is one a command had already (it is not written again).
     */
    private record Decision(StatementResult result, Outcome.Read read, boolean answered) {

        static Decision of(StatementResult result) {
            return new Decision(result, null, false);
        }
    }

    private synchronized Decision decide(String requestId, String statement, String principal) {
        StatementResult earlier = results.get(requestId).orElse(null);
        if (earlier != null) {
            return Decision.of(
                    principal.equals(earlier.principal())
                            ? earlier
                            : StatementRefusals.requestIdInUse(requestId, clock.instant())
                                    .by(principal));
        }
        answeringPrincipal = principal;
        try {
            return executeNew(requestId, statement);
        } finally {
            answeringPrincipal = null;
        }
    }

    private Decision executeNew(String requestId, String statement) {
        String changed = results.changedBy(requestId).orElse(null);
        if (changed != null) {
            return Decision.of(
                    record(
                            StatementResult.succeeded(
                                    requestId,
                                    "This request changed "
                                            + changed
                                            + " already; its result had not been written"
                                            + " (ddl-service restarted or read its catalog back),"
                                            + " so nothing was done again.",
                                    changed,
                                    clock.instant())));
        }
        long start = System.nanoTime();
        Outcome outcome;
        try {
            checkSize(statement);
            outcome =
                    flink.onPlannerThread(
                            () ->
                                    router.route(
                                            statement,
                                            requestId,
                                            clock.instant(),
                                            answeringPrincipal));
        } catch (StatementException e) {
            return Decision.of(
                    record(StatementResult.failed(requestId, e.toError(), clock.instant())));
        } catch (BrokerUnavailableException e) {
            // a source's broker asked while checking the statement
            return Decision.of(brokerUnavailable(requestId, e));
        } catch (RuntimeException e) {
            // Every fault of the statement is a StatementException: anything else is ours, not the
            // user's.
            LOG.errorf(e, "internal failure executing request %s", requestId);
            StatementError error =
                    StatementError.of(
                            INTERNAL_ERROR,
                            "The service failed on this statement ("
                                    + e.getClass().getSimpleName()
                                    + "); nothing was changed."
                                    + " The cause is in ddl-service's log under request "
                                    + requestId
                                    + ".",
                            null);
            return Decision.of(record(StatementResult.failed(requestId, error, clock.instant())));
        }
        if (outcome instanceof Outcome.Read read) {
            return new Decision(null, read, false);
        }
        long checked = System.nanoTime();
        try {
            StatementResult result = apply(requestId, outcome);
            if (outcome instanceof Outcome.Defined defined) {
                // Where a CREATE's time goes in this service (docs/benchmarks.md, control plane).
                LOG.infof(
                        "definition of %s v%d: checked in %d ms, written and taken in %d ms",
                        defined.definition().table(),
                        defined.definition().version(),
                        (checked - start) / 1_000_000,
                        (System.nanoTime() - checked) / 1_000_000);
            }
            return Decision.of(result);
        } catch (BrokerUnavailableException e) {
            return Decision.of(brokerUnavailable(requestId, e));
        }
    }

    /**
     * The change's record was not acknowledged by Kafka, so the catalog did not take it. Not
     * recorded under the request id: the same request may be sent again. Whether the record landed
     * is not known, so a definition write in doubt has the catalog read back from its log.
     */
    private StatementResult brokerUnavailable(String requestId, BrokerUnavailableException e) {
        LOG.warnf("request %s: %s", requestId, e.getMessage());
        if (writer.leftInDoubt(e)) {
            onDefinitionInDoubt.run();
        }
        return StatementRefusals.brokerUnavailable(requestId, e.getMessage(), clock.instant());
    }

    /**
     * Executes the command at {@code command} (its position, {@code topic-partition@offset}) from
     * the command topic: its result is always written to the result log, a query's rows sealed with
     * {@code rowsKey} (null: none given, and a query is refused). A request id already answered is
     * not executed again: a command sent again gets its first result written again, a command
     * redelivered (the same position, after a crash or a rebalance) gets nothing more.
     */
    public StatementResult executeCommand(
            String requestId,
            String statement,
            String command,
            String principal,
            SecretKey rowsKey) {
        Decision decision = decideCommand(requestId, statement, command, principal);
        if (decision.read() == null) {
            StatementResult result = stamped(decision.result(), principal);
            // A query's rows (SHOW, DESCRIBE) are no change, so not recorded yet: a command's are.
            return result.columns() != null && !decision.answered()
                    ? recordAnswer(result, command, rowsKey)
                    : result;
        }
        // Read after the catalog's turn, as over REST; then recorded, failures too: every command
        // gets its result on the log (a standby waits for it).
        return recordAnswer(
                stamped(queries.run(requestId, decision.read(), clock), principal),
                command,
                rowsKey);
    }

    private synchronized Decision decideCommand(
            String requestId, String statement, String command, String principal) {
        StatementResult earlier = results.get(requestId).orElse(null);
        if (earlier != null && !principal.equals(earlier.principal())) {
            // Its refusal goes under the command's position: under the request id it would
            // replace the other caller's result in the compacted log.
            return Decision.of(
                    recordRefusal(
                            requestId,
                            StatementRefusals.requestIdInUse(requestId, clock.instant())
                                    .by(principal)
                                    .error(),
                            command,
                            principal));
        }
        if (earlier != null) {
            if (results.answering(command)) {
                results.writeAgain(earlier, command);
            }
            results.write();
            return new Decision(earlier, null, true);
        }
        answeringCommand = command;
        try {
            return decide(requestId, statement, principal); // every other result is recorded
        } finally {
            answeringCommand = null;
        }
    }

    private synchronized StatementResult recordAnswer(
            StatementResult result, String command, SecretKey rowsKey) {
        answeringCommand = command;
        try {
            return record(results.onTheLog(result, rowsKey));
        } finally {
            answeringCommand = null;
        }
    }

    /**
     * Records the refusal of the command at {@code command} (its position) that was not executed:
     * under {@code requestId} when {@code principal} is known and no result has that id yet, else
     * under the command's position, so that no refusal replaces a result or claims an id for
     * someone who did not authenticate.
     *
     * @param principal the authenticated sender; null when the command's sender is not known
     */
    public synchronized StatementResult recordRefusal(
            String requestId, StatementError error, String command, String principal) {
        String id = principal != null && !results.contains(requestId) ? requestId : command;
        if (!results.answering(command)) {
            return results.get(id).orElse(null); // redelivered: answered already
        }
        answeringCommand = command;
        try {
            StatementResult refused = StatementResult.failed(id, error, clock.instant());
            return record(principal == null ? refused : refused.by(principal));
        } finally {
            answeringCommand = null;
        }
    }

    private StatementResult apply(String requestId, Outcome outcome) {
        if (outcome instanceof Outcome.Rows rows) {
            return StatementResult.rows(requestId, rows.columns(), rows.rows(), clock.instant());
        }
        OutcomeWriter.Written written = writer.write(outcome);
        return record(
                StatementResult.succeeded(
                        requestId, written.message(), written.table(), clock.instant()));
    }

    /**
     * Records a result under its request id and writes it to the result log. A result Kafka does
     * not take now is written later ({@link #writePendingResults}): the change it reports is made,
     * and a client of the command topic waits for it.
     */
    private StatementResult record(StatementResult unstamped) {
        StatementResult result =
                answeringPrincipal == null || unstamped.principal() != null
                        ? unstamped
                        : unstamped.by(answeringPrincipal);
        results.record(result, answeringCommand);
        return result;
    }

    /**
     * Writes the results Kafka did not take yet, oldest first; stops at the first it still refuses.
     */
    public synchronized void writePendingResults() {
        results.write();
    }

    /**
     * How many results wait to be written to the result log; while any do, the service is not
     * ready.
     */
    public int pendingResults() {
        return results.pendingCount();
    }

    /** Why the oldest pending result was not written the last time it was tried. */
    public String lastResultWriteFailure() {
        return results.lastWriteFailure();
    }

    private void checkSize(String statement) {
        int bytes = statement.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.maxStatementBytes()) {
            throw StatementException.invalid(
                    "StatementTooLarge",
                    "The statement has " + bytes + " bytes.",
                    "at most "
                            + config.maxStatementBytes()
                            + " bytes (mt.ddl.max-statement-bytes)");
        }
    }
}
