package io.mtables.refreshscheduler;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.time.ZoneId;

/** The scheduler's settings. */
@ConfigMapping(prefix = "mt.scheduler")
public interface SchedulerConfig {

    /** The time zone of the period boundaries and of the partition values. */
    @WithDefault("UTC")
    ZoneId zone();

    /**
     * Catch-up ticks after a gap are spread over this window, so that many tables do not fire at
     * once.
     */
    @WithName("catch-up-window")
    @WithDefault("60s")
    Duration catchUpWindow();

    /**
     * How long a crashed scheduler's unfinished tick transaction may block the others (Kafka's
     * transaction.timeout.ms); a take-over waits at most this long for it.
     */
    @WithName("transaction-timeout")
    @WithDefault("10s")
    Duration transactionTimeout();
}
