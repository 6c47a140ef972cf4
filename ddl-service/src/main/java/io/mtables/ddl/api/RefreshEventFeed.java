package io.mtables.ddl.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The refresh events this instance reads, offered to the callers following them ({@code GET
 * /api/v1/events}) the moment they are read. Nothing is kept: a follower sees the events from when
 * it subscribed (the refresh history holds the past), and one that falls more than {@value
 * #BUFFERED} events behind has its stream ended (it follows again).
 */
@ApplicationScoped
public class RefreshEventFeed {

    static final int BUFFERED = 256;

    private final BroadcastProcessor<RefreshEventView> events = BroadcastProcessor.create();
    private final AtomicInteger followers = new AtomicInteger();
    private final ObjectMapper json = new ObjectMapper();
    private final Clock clock;

    public RefreshEventFeed(Clock clock) {
        this.clock = clock;
    }

    /**
     * Offers the event of {@code type} about {@code table} whose payload is {@code payloadJson};
     * read only when someone follows.
     */
    void publish(String type, String table, String payloadJson) {
        if (followers.get() == 0) {
            return;
        }
        try {
            events.onNext(
                    new RefreshEventView(
                            shortName(type), table, clock.instant(), json.readTree(payloadJson)));
        } catch (Exception unreadable) {
            // the status consumer already read it through its contract; nothing to show
        }
    }

    /** The events from now on, as they are read. */
    Multi<RefreshEventView> follow() {
        return events.onOverflow()
                .buffer(BUFFERED)
                .onSubscription()
                .invoke(followers::incrementAndGet)
                .onTermination()
                .invoke(followers::decrementAndGet);
    }

    /** {@code io.mtables.refresh.JobStarted.v1} as {@code JobStarted}. */
    static String shortName(String type) {
        String[] parts = type.split("\\.");
        return parts.length >= 2 && parts[parts.length - 1].matches("v\\d+")
                ? parts[parts.length - 2]
                : type;
    }
}
