package io.mtables.ddl.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mtables.ddl.infra.ReadLimits;
import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.ddl.statements.QueryAnswer;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A REST page of a streamed read: its size, its token, and its time. */
class RestPagesTest {

    @Test
    void aPageWhoseReadFindsNoRowInTimeIsStoppedAndItsThreadLeftClean() {
        RestPages pages =
                new RestPages(
                        new ReadLimits(1000, Long.MAX_VALUE),
                        Duration.ofMillis(200),
                        Clock.systemUTC());
        Scanning cursor = new Scanning(); // a WHERE that keeps no row of a long scan

        boolean[] interruptedAfter = new boolean[1];
        RestPages.Page page =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(20),
                        () -> {
                            var read =
                                    pages.page(answer(cursor), 10, "SELECT v FROM s.t WHERE v = 0");
                            interruptedAfter[0] = Thread.currentThread().isInterrupted();
                            return read;
                        });

        assertThat(page.result().status()).isEqualTo(StatementResult.Status.FAILED);
        assertThat(page.result().error().reason()).isEqualTo("QueryTimeout");
        assertThat(cursor.closed).isTrue();
        assertThat(interruptedAfter[0])
                .as("the worker thread goes on to its next request uninterrupted")
                .isFalse();
    }

    @Test
    void aPageStopsAtItsSizeAndGivesATokenForTheRest() {
        RestPages pages =
                new RestPages(
                        new ReadLimits(1000, Long.MAX_VALUE),
                        Duration.ofSeconds(30),
                        Clock.systemUTC());
        Counting cursor = new Counting(5);

        RestPages.Page page = pages.page(answer(cursor), 2, "SELECT v FROM s.t");

        assertThat(page.result().rows()).containsExactly(List.of(1L), List.of(2L));
        assertThat(page.nextPageToken()).isNotBlank();
        assertThat(cursor.parked).as("kept for the next page").isTrue();
        assertThat(cursor.closed).isFalse();
        assertThat(pages.page(answer(new Counting(5)), null, "SELECT v FROM s.t").result().rows())
                .hasSize(5);
        assertThat(
                        new RestPages(
                                        new ReadLimits(3, Long.MAX_VALUE),
                                        Duration.ofSeconds(30),
                                        Clock.systemUTC())
                                .page(answer(new Counting(5)), null, "SELECT v FROM s.t")
                                .result()
                                .error()
                                .reason())
                .isEqualTo("ResultTooLarge");
    }

    @Test
    void aPageEndsAtTheRowThatTakesItPastTheBytesAndAWholeAnswerIsRefused() {
        // Each row is one number: 4 + 16 bytes counted; 50 bytes hold two and stop at the third.
        RestPages pages =
                new RestPages(new ReadLimits(1000, 50), Duration.ofSeconds(30), Clock.systemUTC());
        Counting cursor = new Counting(5);

        RestPages.Page page = pages.page(answer(cursor), 10, "SELECT v FROM s.t");

        assertThat(page.result().rows()).containsExactly(List.of(1L), List.of(2L), List.of(3L));
        assertThat(page.nextPageToken()).isNotBlank();
        var refused = pages.page(answer(new Counting(5)), null, "SELECT v FROM s.t").result();
        assertThat(refused.error().reason()).isEqualTo("ResultTooLarge");
        assertThat(refused.error().message()).contains("mt.ddl.read-max-bytes", "by its row 3");
        assertThat(refused.error().allowed()).contains("pageSize");
        assertThat(pages.page(answer(new Counting(2)), null, "SELECT v FROM s.t").result().rows())
                .as("within the bytes")
                .hasSize(2);
    }

    private static QueryAnswer answer(RowCursor cursor) {
        return new QueryAnswer(
                StatementResult.rows("r1", cursor.columns(), List.of(), Instant.EPOCH).by("user:a"),
                cursor);
    }

    /** Reads on and on, keeping nothing, until its thread is interrupted. */
    private static final class Scanning extends Counting {
        Scanning() {
            super(0);
        }

        @Override
        public boolean hasNext() {
            while (true) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("the read was stopped");
                }
                Thread.onSpinWait();
            }
        }
    }

    private static class Counting implements RowCursor {
        private final long rows;
        private long returned;
        boolean closed;
        boolean parked;

        Counting(long rows) {
            this.rows = rows;
        }

        @Override
        public List<ResultColumn> columns() {
            return List.of(new ResultColumn("v", "BIGINT"));
        }

        @Override
        public boolean hasNext() {
            return returned < rows;
        }

        @Override
        public List<Object> next() {
            return returned < rows ? List.of(++returned) : null;
        }

        @Override
        public ScanPosition position() {
            return new ScanPosition("u", 1, 0, returned, returned);
        }

        @Override
        public void park() {
            parked = true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
