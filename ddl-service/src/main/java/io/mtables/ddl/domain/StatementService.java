package io.mtables.ddl.domain;

import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/** Executes one statement of the dialect and says what happened. */
@ApplicationScoped
public class StatementService {

  private final Clock clock;

  public StatementService(Clock clock) {
    this.clock = clock;
  }

  /** The result of {@code statement}, submitted under {@code requestId}. */
  public StatementResult execute(String requestId, String statement) {
    // The dialect (issue 3) is not built yet: every statement is refused, and says so.
    StatementError error =
        StatementError.of(
            "UnsupportedStatement",
            "ddl-service does not execute statements yet: the statement dialect is not built",
            "none yet");
    return StatementResult.failed(requestId, error, clock.instant());
  }
}
