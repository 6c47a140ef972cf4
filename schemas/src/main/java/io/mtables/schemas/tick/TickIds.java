package io.mtables.schemas.tick;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The id of a scheduled tick ({@link RefreshTick#tickId}): {@code <table>@<scheduled time>}, the
 * time in ISO-8601 (UTC), so every replica of the scheduler names the same tick the same and a
 * redelivered one is recognised. The id of a tick for a REFRESH statement is the statement's
 * request id.
 */
public final class TickIds {

    private TickIds() {}

    public static String scheduled(String table, Instant scheduledTime) {
        return table + "@" + scheduledTime;
    }

    /** The scheduled time a scheduled tick's id names; empty for any other id. */
    public static Optional<Instant> scheduledTime(String tickId) {
        int at = tickId == null ? -1 : tickId.lastIndexOf('@');
        if (at < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(tickId.substring(at + 1)));
        } catch (DateTimeParseException notATime) {
            return Optional.empty();
        }
    }
}
