package io.mtables.ddl.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The refresh events this instance reads, offered to the callers following them ({@code GET
 * /api/v1/events}) the moment they are read. Nothing is kept: a follower sees the events written
 * from when the instance started and read after it subscribed (the refresh history holds the past;
 * the topic's older records, read again at every start, are not news). A follower more than {@value
 * #BUFFERED} events behind has its stream ended (it follows again); at most {@value
 * #MOST_PER_CALLER} streams per caller and {@value #MOST} in all.
 */
@ApplicationScoped
public class RefreshEventFeed {

    static final int BUFFERED = 256;
    static final int MOST_PER_CALLER = 4;
    static final int MOST = 64;

    private final BroadcastProcessor<RefreshEventView> events = BroadcastProcessor.create();
    private final AtomicInteger followers = new AtomicInteger();
    private final Map<String, Integer> followersOf = new HashMap<>();
    private final ObjectMapper json = new ObjectMapper();
    private final Clock clock;
    private final Instant since;

    public RefreshEventFeed(Clock clock) {
        this.clock = clock;
        this.since = clock.instant();
    }

    /**
     * Offers the event of {@code type} about {@code table} whose payload is {@code payloadJson},
     * written at {@code writtenAtMillis}; read only when someone follows, and only when written
     * since this instance started.
     */
    void publish(String type, String table, String payloadJson, long writtenAtMillis) {
        if (followers.get() == 0 || writtenAtMillis < since.toEpochMilli()) {
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

    /**
     * The events from now on for {@code principal}, handed over on a worker thread (the check of
     * who may see what is not the consumer's to run), or empty when it, or the instance, follows as
     * many as it may.
     */
    synchronized Optional<Multi<RefreshEventView>> follow(String principal) {
        int held = followersOf.getOrDefault(principal, 0);
        if (held >= MOST_PER_CALLER || followers.get() >= MOST) {
            return Optional.empty();
        }
        followersOf.put(principal, held + 1);
        followers.incrementAndGet();
        return Optional.of(
                events.onOverflow()
                        .buffer(BUFFERED)
                        .emitOn(Infrastructure.getDefaultWorkerPool())
                        .onTermination()
                        .invoke(() -> unfollow(principal)));
    }

    private synchronized void unfollow(String principal) {
        followers.decrementAndGet();
        followersOf.computeIfPresent(principal, (who, held) -> held > 1 ? held - 1 : null);
    }

    /** {@code io.mtables.mt.JobStarted.v1} as {@code JobStarted}. */
    static String shortName(String type) {
        String[] parts = type.split("\\.");
        return parts.length >= 2 && parts[parts.length - 1].matches("v\\d+")
                ? parts[parts.length - 2]
                : type;
    }
}
