package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class QueryRunnerTest {

    private static final Clock CLOCK = Clock.systemUTC();
    private static final Outcome.Read ONE_ROW =
            new Outcome.Read(
                    () ->
                            new Outcome.Rows(
                                    List.of(new ResultColumn("n", "BIGINT")),
                                    List.of(List.of(1L))));

    @Test
    void aReadAnswersItsRows() {
        StatementResult result = new QueryRunner(1, Duration.ofSeconds(5)).run("r", ONE_ROW, CLOCK);

        assertThat(result.rows()).containsExactly(List.of(1L));
    }

    @Test
    void aSlowReadIsStoppedAtTheTimeout() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Outcome.Read endless =
                new Outcome.Read(
                        () -> {
                            try {
                                never.await(); // a read that ends only when it is stopped
                            } catch (InterruptedException stopped) {
                                interrupted.countDown();
                            }
                            return null;
                        });

        StatementResult result =
                new QueryRunner(1, Duration.ofMillis(200)).run("r", endless, CLOCK);

        assertThat(result.error().reason()).isEqualTo(QueryRunner.QUERY_TIMEOUT);
        assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the read was interrupted").isTrue();
    }

    @Test
    void aRefusalInTheReadIsItsAnswer() {
        Outcome.Read refused =
                new Outcome.Read(
                        () -> {
                            throw StatementException.invalid("ResultTooLarge", "too many", null);
                        });

        StatementResult result = new QueryRunner(1, Duration.ofSeconds(5)).run("r", refused, CLOCK);

        assertThat(result.error().reason()).isEqualTo("ResultTooLarge");
    }

    @Test
    void pastTheReadersAndTheirQueueAReadIsRefused() throws Exception {
        QueryRunner runner = new QueryRunner(1, Duration.ofSeconds(30));
        CountDownLatch release = new CountDownLatch(1);
        Outcome.Read held =
                new Outcome.Read(
                        () -> {
                            release.await();
                            return new Outcome.Rows(List.of(), List.of());
                        });
        // One reading and four waiting fill it: of six sent at once, the one refused answers
        // first (the others wait for the release).
        var senders = java.util.concurrent.Executors.newFixedThreadPool(6);
        List<CompletableFuture<StatementResult>> sent =
                java.util.stream.IntStream.range(0, 6)
                        .mapToObj(
                                i ->
                                        CompletableFuture.supplyAsync(
                                                () -> runner.run("r" + i, held, CLOCK), senders))
                        .toList();
        StatementResult first =
                (StatementResult)
                        CompletableFuture.anyOf(sent.toArray(CompletableFuture[]::new))
                                .get(10, TimeUnit.SECONDS);
        release.countDown();

        assertThat(first.error().reason()).isEqualTo(QueryRunner.TOO_MANY_QUERIES);
        long answered = 0;
        for (CompletableFuture<StatementResult> each : sent) {
            if (each.get(10, TimeUnit.SECONDS).status() == StatementResult.Status.SUCCEEDED) {
                answered++;
            }
        }
        assertThat(answered).isEqualTo(5);
        senders.shutdown();
    }
}
