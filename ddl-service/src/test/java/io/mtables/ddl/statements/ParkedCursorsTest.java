package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.infra.RowCursor;
import io.mtables.ddl.infra.ScanPosition;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A cursor kept between pages goes only to its caller's next page of the same statement. */
class ParkedCursorsTest {

    private static final ScanPosition AT = new ScanPosition("u", 3, 0, 10, 10);

    @Test
    void onlyTheSameCallerStatementAndPlaceTakeAKeptCursor() {
        ParkedCursors parked = new ParkedCursors(2, Duration.ofMinutes(1));
        Cursor cursor = new Cursor();
        parked.park(new ParkedCursors.Key("user:a", "SELECT 1", AT), cursor);

        assertThat(parked.take(new ParkedCursors.Key("user:b", "SELECT 1", AT))).isNull();
        assertThat(parked.take(new ParkedCursors.Key("user:a", "SELECT 2", AT))).isNull();
        assertThat(
                        parked.take(
                                new ParkedCursors.Key(
                                        "user:a", "SELECT 1", new ScanPosition("u", 3, 0, 9, 9))))
                .isNull();
        assertThat(parked.take(new ParkedCursors.Key("user:a", "SELECT 1", AT))).isSameAs(cursor);
        assertThat(parked.take(new ParkedCursors.Key("user:a", "SELECT 1", AT)))
                .as("taken once")
                .isNull();
        assertThat(cursor.closed).isFalse();
    }

    @Test
    void theOldestAreClosedPastTheMostAndAllPastTheirTime() {
        AtomicLong now = new AtomicLong();
        ParkedCursors parked = new ParkedCursors(2, Duration.ofMillis(200), now::get);
        Cursor first = new Cursor();
        Cursor second = new Cursor();
        Cursor third = new Cursor();
        parked.park(new ParkedCursors.Key("user:a", "SELECT 1", AT), first);
        parked.park(new ParkedCursors.Key("user:a", "SELECT 2", AT), second);
        parked.park(new ParkedCursors.Key("user:a", "SELECT 3", AT), third);
        assertThat(first.closed).isTrue();
        assertThat(second.closed || third.closed).isFalse();

        now.addAndGet(Duration.ofMillis(200).toNanos());
        parked.sweep();
        assertThat(second.closed || third.closed).as("kept for their whole time").isFalse();
        now.addAndGet(1);
        parked.sweep();
        assertThat(second.closed && third.closed).isTrue();
        assertThat(parked.size()).isZero();
    }

    @Test
    void pastTheMostTheCallerHoldingMostLosesItsOwnOldest() {
        ParkedCursors parked = new ParkedCursors(3, Duration.ofMinutes(1), () -> 0);
        Cursor others = new Cursor();
        Cursor first = new Cursor();
        Cursor second = new Cursor();
        Cursor third = new Cursor();
        parked.park(new ParkedCursors.Key("user:b", "SELECT 1", AT), others);
        parked.park(new ParkedCursors.Key("user:a", "SELECT 1", AT), first);
        parked.park(new ParkedCursors.Key("user:a", "SELECT 2", AT), second);
        parked.park(new ParkedCursors.Key("user:a", "SELECT 3", AT), third);

        assertThat(others.closed).as("another caller's cursor").isFalse();
        assertThat(first.closed).isTrue();
        assertThat(second.closed || third.closed).isFalse();
    }

    private static final class Cursor implements RowCursor {
        boolean closed;

        @Override
        public List<ResultColumn> columns() {
            return List.of();
        }

        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public List<Object> next() {
            return null;
        }

        @Override
        public ScanPosition position() {
            return AT;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
