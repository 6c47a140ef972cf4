package io.mtables.schemas;

/** A payload that does not follow its contract; the message says what is wrong and where. */
public class ContractViolationException extends RuntimeException {

    public ContractViolationException(String message) {
        super(message);
    }

    public ContractViolationException(String message, Throwable cause) {
        super(message, cause);
    }
}
