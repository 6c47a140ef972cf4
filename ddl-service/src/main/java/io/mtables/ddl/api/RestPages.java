package io.mtables.ddl.api;

import io.mtables.ddl.DdlConfig;
import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.ddl.statements.PageTokens;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A REST answer's rows as one page: a SELECT that streams gives at most {@code pageSize} rows and a
 * token for the next page ({@link PageTokens}); without a page size, its rows up to {@code
 * mt.ddl.read-max-rows}, and {@code ResultTooLarge} past them. Other answers come whole.
 */
@ApplicationScoped
public class RestPages {

    /** The reason of a page size out of its range. */
    static final String INVALID_PAGE_SIZE = "InvalidPageSize";

    /** How often (in rows) a page's read looks at the clock. */
    private static final int CLOCK_EVERY = 1024;

    private final int maxRows;
    private final long timeoutMillis;
    private final Clock clock;

    public RestPages(DdlConfig config, Clock clock) {
        this.maxRows = config.readMaxRows();
        this.timeoutMillis = config.readTimeout().toMillis();
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
        try {
            int most = pageSize == null ? maxRows : pageSize;
            long deadline = System.currentTimeMillis() + timeoutMillis;
            List<List<Object>> rows = new ArrayList<>();
            while (rows.size() < most && cursor.hasNext()) {
                if (rows.size() % CLOCK_EVERY == 0 && System.currentTimeMillis() > deadline) {
                    return failed(requestId, principal, timedOut());
                }
                rows.add(cursor.next());
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
            if (!parked) {
                cursor.close();
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

    private StatementError timedOut() {
        return StatementError.of(
                QueryRunner.QUERY_TIMEOUT,
                "The page was stopped after " + timeoutMillis / 1000 + " s (mt.ddl.read-timeout).",
                "a smaller pageSize, or a larger mt.ddl.read-timeout");
    }
}
