package io.mtables.jobmanager.flink;

/** Flink did not answer, or refused what was asked; the message says what and where. */
public class FlinkUnavailableException extends RuntimeException {

    public FlinkUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
