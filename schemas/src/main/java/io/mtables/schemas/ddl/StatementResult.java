package io.mtables.schemas.ddl;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * The outcome of one statement.
 *
 * @param requestId the command's request id (or, when it had none, the topic position of the
 *     command, as {@code topic-partition@offset})
 * @param status SUCCEEDED or FAILED
 * @param message one sentence for a human
 * @param error why it failed; absent when it succeeded
 * @param processedAt when ddl-service decided
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatementResult(
    String requestId, Status status, String message, StatementError error, Instant processedAt) {

  /** Whether the statement was applied. */
  public enum Status {
    SUCCEEDED,
    FAILED
  }

  /** A failed result. */
  public static StatementResult failed(String requestId, StatementError error, Instant at) {
    return new StatementResult(requestId, Status.FAILED, error.message(), error, at);
  }
}
