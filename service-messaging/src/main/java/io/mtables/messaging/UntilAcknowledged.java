package io.mtables.messaging;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Writes a record again until Kafka takes it. For a consumer whose work is understood and done but
 * whose output the broker did not acknowledge: throwing would send the input to the dead letters
 * and commit it (the work lost for good, though nothing was wrong with it); waiting in place keeps
 * the input's order, and the consumer goes on once the broker is back. Each refusal is reported
 * (readiness takes it), and the report is cleared once the record is taken.
 */
public final class UntilAcknowledged {

    private UntilAcknowledged() {}

    /**
     * Runs {@code write} until it does not throw {@link BrokerUnavailableException}, {@code pause}
     * apart; {@code problem} is told why while it has not been taken, and null once it has. What
     * else {@code write} throws is thrown.
     *
     * @param what the record, for the report ("the plan of shop.daily v3")
     */
    public static void write(
            String what, Runnable write, Duration pause, Consumer<String> problem) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                problem.accept(null);
                return;
            } catch (BrokerUnavailableException refused) {
                problem.accept(
                        what
                                + " was not taken by Kafka "
                                + attempt
                                + " time(s) in a row; written again "
                                + pause.toMillis()
                                + " ms after each refusal: "
                                + refused.getMessage());
            } catch (RuntimeException other) {
                problem.accept(null); // not a wait for the broker: what it is, its caller says
                throw other;
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing " + what + " again", e);
            }
        }
    }
}
