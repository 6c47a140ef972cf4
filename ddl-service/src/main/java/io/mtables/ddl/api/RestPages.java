package io.mtables.ddl.api;

import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.infra.ReadLimits;
import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.ddl.statements.PageTokens;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A REST answer's rows as one page: a SELECT that streams gives at most {@code pageSize} rows and a
 * token for the next page ({@link PageTokens}); without a page size, its rows up to {@code
 * mt.ddl.read-max-rows}, and {@code ResultTooLarge} past them. Other answers come whole.
 */
@ApplicationScoped
public class RestPages {

    /** The reason of a page size out of its range. */
    static final String INVALID_PAGE_SIZE = "InvalidPageSize";

    /** Rings the alarms of pages read past their time. */
    private static final ScheduledExecutorService ALARMS =
            Executors.newSingleThreadScheduledExecutor(
                    task -> {
                        Thread thread = new Thread(task, "rest-page-alarms");
                        thread.setDaemon(true);
                        return thread;
                    });

    private final int maxRows;
    private final long maxBytes;
    private final long timeoutMillis;
    private final Clock clock;

    @Inject
    public RestPages(DdlConfig config, Clock clock) {
        this(config.readLimits(), config.readTimeout(), clock);
    }

    RestPages(ReadLimits limits, Duration timeout, Clock clock) {
        this.maxRows = limits.maxRows();
        this.maxBytes = limits.maxBytes();
        this.timeoutMillis = timeout.toMillis();
        this.clock = clock;
    }

    /**
     * One page of an answer.
     *
     * @param result the statement's result, with the page's rows
     * @param nextPageToken where the next page starts, or null after the last
     */
    public record Page(StatementResult result, String nextPageToken) {}

    /** The refusal of {@code pageSize}, if it is out of range. */
    StatementError checkSize(Integer pageSize) {
        if (pageSize == null || (pageSize >= 1 && pageSize <= maxRows)) {
            return null;
        }
        return StatementError.of(
                INVALID_PAGE_SIZE,
                "pageSize " + pageSize + " is out of range.",
                "1 to " + maxRows + " (mt.ddl.read-max-rows)");
    }

    /** The first page of {@code answer} (closing its cursor), for {@code statement}. */
    Page page(QueryAnswer answer, Integer pageSize, String statement) {
        RowCursor cursor = answer.cursor();
        if (cursor == null) {
            return new Page(answer.result(), null);
        }
        String requestId = answer.result().requestId();
        String principal = answer.result().principal();
        boolean parked = false;
        // A page past its time stops at the next row its read takes, returned or not (a WHERE
        // that keeps few rows reads many between two).
        Alarm alarm = new Alarm(timeoutMillis);
        try {
            int most = pageSize == null ? maxRows : pageSize;
            List<List<Object>> rows = new ArrayList<>();
            ReadLimits.Tally held = new ReadLimits(most, maxBytes).tally();
            boolean withinBytes = true;
            // A page ends at its size, or at the row that takes it past mt.ddl.read-max-bytes.
            while (withinBytes && !held.full() && cursor.hasNext()) {
                List<Object> row = cursor.next();
                rows.add(row);
                withinBytes = held.add(row);
            }
            if (pageSize == null && !withinBytes) {
                return failed(requestId, principal, tooManyBytes(rows));
            }
            String next = null;
            if (cursor.hasNext()) {
                if (pageSize == null) {
                    return failed(requestId, principal, tooLarge());
                }
                next = PageTokens.of(cursor.position(), statement);
                cursor.park(); // the next page goes on from here, if asked for soon
                parked = true;
            }
            return new Page(
                    StatementResult.rows(requestId, cursor.columns(), rows, clock.instant())
                            .by(principal),
                    next);
        } catch (RuntimeException readFailed) {
            if (alarm.rang()) {
                return failed(requestId, principal, timedOut());
            }
            return failed(
                    requestId,
                    principal,
                    StatementError.of(
                            WarehouseReader.READ_FAILED,
                            "The read of the table failed part way (its files were removed under"
                                    + " it: a query change's switch-over, or snapshot expiry): "
                                    + readFailed.getMessage(),
                            "the SELECT again"));
        } finally {
            alarm.close();
            if (!parked) {
                cursor.close();
            }
        }
    }

    /**
     * Interrupts the thread that set it once {@code millis} have passed, unless closed first; the
     * interrupt is cleared at close, so that the worker thread goes on to its next request clean.
     */
    private static final class Alarm implements AutoCloseable {
        private final Thread thread = Thread.currentThread();
        private final ScheduledFuture<?> ring;
        private boolean closed;
        private boolean rang;

        Alarm(long millis) {
            this.ring = ALARMS.schedule(this::ring, millis, TimeUnit.MILLISECONDS);
        }

        private synchronized void ring() {
            if (!closed) {
                rang = true;
                thread.interrupt();
            }
        }

        synchronized boolean rang() {
            return rang;
        }

        @Override
        public void close() {
            boolean interrupted;
            synchronized (this) {
                closed = true;
                interrupted = rang;
            }
            ring.cancel(false);
            if (interrupted) {
                Thread.interrupted();
            }
        }
    }

    private Page failed(String requestId, String principal, StatementError error) {
        return new Page(
                StatementResult.failed(requestId, error, Instant.now(clock)).by(principal), null);
    }

    private StatementError tooLarge() {
        return StatementError.of(
                WarehouseReader.RESULT_TOO_LARGE,
                "The answer has more than " + maxRows + " rows (mt.ddl.read-max-rows).",
                "pageSize (1 to "
                        + maxRows
                        + ") to read it page by page, each next page with the previous page's"
                        + " nextPageToken; or a narrower SELECT");
    }

    private StatementError tooManyBytes(List<List<Object>> rows) {
        return StatementError.of(
                WarehouseReader.RESULT_TOO_LARGE,
                "The answer holds more than "
                        + maxBytes
                        + " bytes of values (mt.ddl.read-max-bytes) by its row "
                        + rows.size()
                        + ".",
                "pageSize to read it page by page (a page ends early at mt.ddl.read-max-bytes;"
                        + " go on with its nextPageToken), fewer or narrower columns, or a"
                        + " narrower SELECT");
    }

    private StatementError timedOut() {
        return StatementError.of(
                QueryRunner.QUERY_TIMEOUT,
                "The page was stopped after " + timeoutMillis / 1000 + " s (mt.ddl.read-timeout).",
                "a smaller pageSize, or a larger mt.ddl.read-timeout");
    }
}
