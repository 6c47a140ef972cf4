package io.mtables.messaging;

/**
 * A record a service cannot act on. Thrown from a consumer, it sends the record to the dead-letter
 * topic with this message as the {@code dead-letter-reason} header, and the consumer moves on: one
 * bad record never blocks a table's history.
 */
public class UnreadableRecordException extends RuntimeException {

    public UnreadableRecordException(String message) {
        super(message);
    }

    public UnreadableRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
