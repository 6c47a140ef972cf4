package io.mtables.jobmanager.infra;

import io.mtables.messaging.UnreadableRecordException;
import io.mtables.schemas.tick.RefreshTick;
import io.smallrye.faulttolerance.api.Guard;
import java.time.temporal.ChronoUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Every tick is acted on or reported failed, never only logged: acting on it is tried three times,
 * a second and two apart; then its refresh is reported failed (RefreshFailed, counted like a failed
 * job); and when even that cannot be written, the tick goes to {@code mt.dead-letters} with the
 * reason (thrown as an unreadable record). Its offset is committed only after one of these.
 */
final class TickActions {

    private static final Logger LOG = Logger.getLogger(TickActions.class);

    private final Guard retries;
    private final Consumer<RefreshTick> act;
    private final BiConsumer<RefreshTick, String> reportFailed;

    TickActions(
            Consumer<RefreshTick> act,
            BiConsumer<RefreshTick, String> reportFailed,
            long delayMillis) {
        this.act = act;
        this.reportFailed = reportFailed;
        this.retries =
                Guard.create()
                        .withRetry()
                        .maxRetries(2)
                        .delay(delayMillis, ChronoUnit.MILLIS)
                        .jitter(0, ChronoUnit.MILLIS)
                        .maxDuration(60, ChronoUnit.SECONDS)
                        .done()
                        .build();
    }

    void handle(RefreshTick tick) {
        try {
            retries.call(
                    () -> {
                        act.accept(tick);
                        return null;
                    },
                    Void.class);
            return;
        } catch (Exception e) {
            String reason =
                    "the job manager could not act on tick "
                            + tick.tickId()
                            + " (tried 3 times): "
                            + message(e);
            LOG.error(reason);
            try {
                reportFailed.accept(tick, reason);
            } catch (RuntimeException reporting) {
                throw new UnreadableRecordException(
                        reason
                                + "; reporting it as a failed refresh failed too: "
                                + message(reporting),
                        e);
            }
        }
    }

    private static String message(Throwable error) {
        return error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    }
}
