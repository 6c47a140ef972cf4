package io.mtables.ddl.infra;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The wall clock, injectable so that tests can fix time. */
public class Clocks {

    @Produces
    @Singleton
    Clock utc() {
        return Clock.systemUTC();
    }
}
