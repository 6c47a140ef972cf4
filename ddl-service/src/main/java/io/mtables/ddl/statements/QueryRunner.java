package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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

    /** The reason of a SELECT its client cancelled while it was read. */
    public static final String QUERY_CANCELED = "QueryCanceled";

    /** The reason of a SELECT refused because every reader is busy and enough wait. */
    public static final String TOO_MANY_QUERIES = "TooManyQueries";

    private final Duration timeout;
    private final ThreadPoolExecutor pool;
    private final Semaphore openCursors;

    public QueryRunner(int concurrency, Duration timeout) {
        this.timeout = timeout;
        this.openCursors = new Semaphore(concurrency * CURSORS_PER_READER);
        Thread sweeper =
                new Thread(
                        () -> {
                            while (true) {
                                try {
                                    Thread.sleep(PARKED_FOR.toMillis() / 3);
                                } catch (InterruptedException e) {
                                    return;
                                }
                                parked.sweep();
                            }
                        },
                        "ddl-parked-cursors");
        sweeper.setDaemon(true);
        sweeper.start();
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

    /**
     * Cursors open at once per reader: a cursor is pulled by its client's thread, at its pace, and
     * holds one batch and one file's reader.
     */
    static final int CURSORS_PER_READER = 8;

    private static final Object ABANDONED = new Object();

    /** Cursors kept between REST pages, and for how long. */
    static final int PARKED_MOST = 8;

    static final Duration PARKED_FOR = Duration.ofSeconds(30);

    private final ParkedCursors parked = new ParkedCursors(PARKED_MOST, PARKED_FOR);

    /**
     * A cursor over {@code read}'s rows from {@code from}, opened on the pool within the timeout
     * (finding the table and planning its read), or its rows read whole ({@link #run}) when it
     * cannot stream; a cursor closed gives its place back.
     */
    QueryAnswer open(
            String requestId,
            Outcome.Read read,
            String statement,
            ScanPosition from,
            Clock clock,
            String principal) {
        if (!from.isStart()) {
            RowCursor kept = parked.take(new ParkedCursors.Key(principal, statement, from));
            if (kept != null) {
                return QueryAnswer.streaming(requestId, kept, clock.instant(), principal);
            }
        }
        if (!openCursors.tryAcquire()) {
            // Every cursor is held (by clients pulling slowly): this read is read whole instead,
            // as a query the engine runs is; a page cannot go on without a cursor.
            return QueryAnswer.of(
                    (from.isStart() ? run(requestId, read, clock) : tooMany(requestId, clock))
                            .by(principal));
        }
        boolean handedOver = false;
        // The cursor is handed over through a slot, so that one opened after its wait ended (a
        // timeout, this thread interrupted) is closed rather than left holding its place.
        AtomicReference<Object> slot = new AtomicReference<>();
        try {
            Awaited<Optional<RowCursor>> opened =
                    submitted(
                            requestId,
                            () -> {
                                Optional<RowCursor> cursor = read.cursor().apply(from);
                                if (cursor.isPresent() && !slot.compareAndSet(null, cursor.get())) {
                                    cursor.get().close();
                                }
                                return cursor;
                            },
                            clock);
            if (opened.failure() != null) {
                return QueryAnswer.of(opened.failure().by(principal)); // a late cursor: finally
            }
            Optional<RowCursor> cursor = opened.value();
            if (cursor.isEmpty()) {
                if (!from.isStart()) {
                    return QueryAnswer.of(
                            failed(
                                            requestId,
                                            StatementError.of(
                                                    WarehouseReader.PAGE_EXPIRED,
                                                    "This SELECT's rows are no longer read page by"
                                                            + " page (its table was replaced).",
                                                    "the SELECT again without a page token"),
                                            clock)
                                    .by(principal));
                }
                return QueryAnswer.of(run(requestId, read, clock).by(principal));
            }
            handedOver = true;
            return QueryAnswer.streaming(
                    requestId,
                    released(cursor.get(), principal, statement),
                    clock.instant(),
                    principal);
        } finally {
            if (!handedOver) {
                if (slot.getAndSet(ABANDONED) instanceof RowCursor late) {
                    late.close();
                }
                openCursors.release();
            }
        }
    }

    /** {@code cursor}, giving its place back once closed, parked for its caller's next page. */
    private RowCursor released(RowCursor cursor, String principal, String statement) {
        return new RowCursor() {
            private boolean closed;

            @Override
            public List<ResultColumn> columns() {
                return cursor.columns();
            }

            @Override
            public boolean hasNext() {
                return cursor.hasNext();
            }

            @Override
            public List<Object> next() {
                return cursor.next();
            }

            @Override
            public ScanPosition position() {
                return cursor.position();
            }

            @Override
            public void park() {
                parked.park(new ParkedCursors.Key(principal, statement, position()), this);
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    cursor.close();
                    openCursors.release();
                }
            }
        };
    }

    /** How long a read may take (mt.ddl.read-timeout). */
    Duration timeout() {
        return timeout;
    }

    /** The result of {@code read}, or why it has none. */
    StatementResult run(String requestId, Outcome.Read read, Clock clock) {
        Awaited<Outcome.Rows> answer = submitted(requestId, read.rows(), clock);
        return answer.failure() != null
                ? answer.failure()
                : StatementResult.rows(
                        requestId,
                        answer.value().columns(),
                        answer.value().rows(),
                        clock.instant());
    }

    /** A value computed on the pool, or the result that says why there is none. */
    private record Awaited<T>(T value, StatementResult failure) {}

    private <T> Awaited<T> submitted(String requestId, Callable<T> work, Clock clock) {
        Future<T> future;
        try {
            future = pool.submit(work);
        } catch (RejectedExecutionException busy) {
            return new Awaited<>(null, tooMany(requestId, clock));
        }
        try {
            return new Awaited<>(awaitUnlessCancelled(future), null);
        } catch (CancellationException cancelled) {
            return new Awaited<>(
                    null,
                    failed(
                            requestId,
                            StatementError.of(
                                    QUERY_CANCELED,
                                    "The SELECT was cancelled by its client; nothing more is"
                                            + " read.",
                                    null),
                            clock));
        } catch (TimeoutException slow) {
            future.cancel(true);
            return new Awaited<>(
                    null,
                    failed(
                            requestId,
                            StatementError.of(
                                    QUERY_TIMEOUT,
                                    "The SELECT was stopped after "
                                            + timeout.toSeconds()
                                            + " s"
                                            + " (mt.ddl.read-timeout).",
                                    "a narrower SELECT, or a larger mt.ddl.read-timeout"),
                            clock));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StatementException refused) {
                return new Awaited<>(null, failed(requestId, refused.toError(), clock));
            }
            LOG.errorf(e.getCause(), "internal failure reading for request %s", requestId);
            return new Awaited<>(
                    null,
                    failed(
                            requestId,
                            StatementError.of(
                                    StatementService.INTERNAL_ERROR,
                                    "The read failed ("
                                            + e.getCause().getClass().getSimpleName()
                                            + "); the cause is in ddl-service's log under request "
                                            + requestId
                                            + ".",
                                    null),
                            clock));
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a read", e);
        }
    }

    /**
     * {@code future}'s value within the timeout, looking every {@value #CANCEL_LOOK_MILLIS} ms
     * whether the waiting client cancelled ({@link ReadCancellation}): then the read is stopped.
     */
    private <T> T awaitUnlessCancelled(Future<T> future)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            try {
                return future.get(
                        Math.min(left, TimeUnit.MILLISECONDS.toNanos(CANCEL_LOOK_MILLIS)),
                        TimeUnit.NANOSECONDS);
            } catch (TimeoutException notYet) {
                if (ReadCancellation.requested()) {
                    future.cancel(true);
                    throw new CancellationException("cancelled by its client");
                }
            }
        }
    }

    private static final long CANCEL_LOOK_MILLIS = 100;

    private StatementResult tooMany(String requestId, Clock clock) {
        return failed(
                requestId,
                StatementError.of(
                        TOO_MANY_QUERIES,
                        "Every reader of the warehouse is busy and "
                                + pool.getQueue().size()
                                + " SELECTs wait already, or "
                                + openCursors.availablePermits()
                                + " more cursors may be open; nothing was read.",
                        "the same SELECT again in a few seconds"),
                clock);
    }

    private static StatementResult failed(String requestId, StatementError error, Clock clock) {
        return StatementResult.failed(requestId, error, clock.instant());
    }
}
