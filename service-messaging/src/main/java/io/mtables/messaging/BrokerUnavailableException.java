package io.mtables.messaging;

/**
 * The broker did not acknowledge a record in time: it is down, unreachable or without a leader for
 * the topic. Not the caller's fault, and worth retrying once the broker is back; whether the record
 * was written is not known (a timed-out send may still land).
 */
public class BrokerUnavailableException extends RuntimeException {

    public BrokerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
