package io.mtables.jobmanager.pipelines;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/** A clock the test moves by hand: it reads the test's own {@code now} each time it is asked. */
final class TestClock extends Clock {

    private final Supplier<Instant> now;

    TestClock(Supplier<Instant> now) {
        this.now = now;
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
