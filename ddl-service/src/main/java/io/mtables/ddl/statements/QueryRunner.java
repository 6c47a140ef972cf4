package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Runs SELECTs' reads of the warehouse off the catalog's lock, on a pool of their own: at most
 * {@code mt.ddl.read-concurrency} at once (a few more wait, the rest are refused as {@code
 * TooManyQueries}), each stopped after {@code mt.ddl.read-timeout} ({@code QueryTimeout}).
 */
public class QueryRunner {

    private static final Logger LOG = Logger.getLogger(QueryRunner.class);

    /** The reason of a SELECT stopped at the read timeout. */
    public static final String QUERY_TIMEOUT = "QueryTimeout";

    /** The reason of a SELECT refused because every reader is busy and enough wait. */
    public static final String TOO_MANY_QUERIES = "TooManyQueries";

    private final Duration timeout;
    private final ThreadPoolExecutor pool;

    public QueryRunner(int concurrency, Duration timeout) {
        this.timeout = timeout;
        AtomicInteger threads = new AtomicInteger();
        this.pool =
                new ThreadPoolExecutor(
                        concurrency,
                        concurrency,
                        0,
                        TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(concurrency * 4),
                        task -> {
                            Thread thread =
                                    new Thread(task, "ddl-query-" + threads.incrementAndGet());
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** How long a read may take (mt.ddl.read-timeout). */
    Duration timeout() {
        return timeout;
    }

    /** The result of {@code read}, or why it has none. */
    StatementResult run(String requestId, Outcome.Read read, Clock clock) {
        Future<Outcome.Rows> rows;
        try {
            rows = pool.submit(read.rows());
        } catch (RejectedExecutionException busy) {
            return failed(
                    requestId,
                    StatementError.of(
                            TOO_MANY_QUERIES,
                            "Every reader of the warehouse is busy and "
                                    + pool.getQueue().size()
                                    + " SELECTs wait already; nothing was read.",
                            "the same SELECT again in a few seconds"),
                    clock);
        }
        try {
            Outcome.Rows answer = rows.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return StatementResult.rows(
                    requestId, answer.columns(), answer.rows(), clock.instant());
        } catch (TimeoutException slow) {
            rows.cancel(true);
            return failed(
                    requestId,
                    StatementError.of(
                            QUERY_TIMEOUT,
                            "The SELECT was stopped after "
                                    + timeout.toSeconds()
                                    + " s"
                                    + " (mt.ddl.read-timeout).",
                            "a narrower SELECT, or a larger mt.ddl.read-timeout"),
                    clock);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StatementException refused) {
                return failed(requestId, refused.toError(), clock);
            }
            LOG.errorf(e.getCause(), "internal failure reading for request %s", requestId);
            return failed(
                    requestId,
                    StatementError.of(
                            StatementService.INTERNAL_ERROR,
                            "The read failed ("
                                    + e.getCause().getClass().getSimpleName()
                                    + "); the cause is in ddl-service's log under request "
                                    + requestId
                                    + ".",
                            null),
                    clock);
        } catch (InterruptedException e) {
            rows.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a read", e);
        }
    }

    private static StatementResult failed(String requestId, StatementError error, Clock clock) {
        return StatementResult.failed(requestId, error, clock.instant());
    }
}
