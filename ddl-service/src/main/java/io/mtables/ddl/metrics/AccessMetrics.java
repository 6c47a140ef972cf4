package io.mtables.ddl.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What identity and privileges cost a statement, {@code mt_access_seconds{step}} with its p50 and
 * p99: {@code authentication}, an API key checked against the accounts' digests (a JWT is checked
 * by SmallRye JWT, not timed here); {@code authorization}, every privilege check of one statement
 * together (its name, what it reads, each table a listing may show).
 */
@ApplicationScoped
public class AccessMetrics {

    private final Timer authentication;
    private final Timer authorization;

    public AccessMetrics(MeterRegistry registry) {
        this.authentication = timer(registry, "authentication");
        this.authorization = timer(registry, "authorization");
    }

    private static Timer timer(MeterRegistry registry, String step) {
        return Timer.builder("mt.access")
                .description("Time a statement spent on its caller's identity or privileges")
                .tag("step", step)
                .publishPercentiles(0.5, 0.99)
                .register(registry);
    }

    /** One API key checked, {@code nanos} long. */
    public void authenticated(long nanos) {
        authentication.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One statement's privilege checks, all together. */
    public void authorized(Duration spent) {
        authorization.record(spent);
    }
}
