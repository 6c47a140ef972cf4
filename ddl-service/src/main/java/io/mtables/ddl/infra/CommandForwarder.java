package io.mtables.ddl.infra;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.ContractCodec;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.SealedRows;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * A standby's front door: a statement that reaches an instance which is not the active one is sent
 * to the active one as a command on {@code mt.ddl.commands} (with the request's id), and answered
 * with its result from {@code mt.ddl.results}, which this instance follows from the start once the
 * first request comes (so it also knows every earlier operation). One path for every statement: a
 * standby holds no catalog that could be stale. A query's rows come sealed there with the key its
 * caller's credential and request id give ({@code SealedRows.keyFor}), sent with the command: every
 * client principal reads the result log, only ddl-service and the broker's admins the commands. So
 * any instance the caller sends the request to, again or first, opens them.
 */
public class CommandForwarder implements AutoCloseable {

    /** A query's rows that the caller's credential does not open. */
    public static final String ROWS_SEALED_FOR_ANOTHER = "RowsSealedForAnother";

    private static final Logger LOG = Logger.getLogger(CommandForwarder.class);

    private final Map<String, Object> clientConfig;
    private final KafkaLog commands;
    private final ContractCodec codec = new ContractCodec();
    private final NewestEntries<String, StatementResult> results;

    private final Map<String, CompletableFuture<StatementResult>> waiting =
            new ConcurrentHashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile boolean stopped;
    private Thread follower;

    /**
     * @param kept how many results it remembers, the newest ({@code mt.ddl.results-kept})
     */
    public CommandForwarder(Map<String, Object> clientConfig, String serviceName, int kept) {
        this.clientConfig = clientConfig;
        this.results = new NewestEntries<>(kept);
        this.commands = new KafkaLog(Topics.DDL_COMMANDS, serviceName, clientConfig);
    }

    /**
     * Sends the statement to the active instance, with the caller's credential ({@code
     * authorization}, as the caller sent it), and waits up to {@code patience} for its result.
     *
     * @throws ServiceNotReadyException when no result came in time (no active instance yet: the
     *     command stays queued and is executed once; the same request id finds its result)
     */
    public StatementResult forward(
            String requestId, String statement, String authorization, Duration patience) {
        awaitCaughtUp(patience);
        CompletableFuture<StatementResult> result =
                waiting.computeIfAbsent(requestId, id -> new CompletableFuture<>());
        StatementResult known = results.get(requestId).orElse(null);
        if (known != null) {
            waiting.remove(requestId);
            // answered before: executed once, as on the active instance
            return opened(known, authorization);
        }
        try {
            commands.append(
                    Contracts.DDL_COMMAND_V1,
                    requestId,
                    new DdlCommand(statement, requestId),
                    Map.of(
                            EventHeaders.AUTHORIZATION,
                            authorization,
                            EventHeaders.RESULT_KEY,
                            SealedRows.headerFor(authorization, requestId)));
            return opened(result.get(patience.toMillis(), TimeUnit.MILLISECONDS), authorization);
        } catch (TimeoutException e) {
            throw new ServiceNotReadyException(
                    "this ddl-service instance stands by, and the active one did not answer within "
                            + patience.toSeconds()
                            + " s (one is taking over?); the statement is queued and will be"
                            + " executed once: ask GET /api/v1/operations/"
                            + requestId
                            + " or send it again with the same requestId");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + requestId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            waiting.remove(requestId, result);
        }
    }

    /** The result of an earlier statement, as the active instance wrote it. */
    public Optional<StatementResult> operation(String requestId, Duration patience) {
        awaitCaughtUp(patience);
        return results.get(requestId);
    }

    /**
     * {@code result} with its rows opened by the key the caller's credential gives ({@code
     * authorization}, as sent with the request); refused when they do not open (sealed with a key
     * the command carried, or for another credential: a JWT renewed since).
     */
    public static StatementResult opened(StatementResult result, String authorization) {
        if (result.sealedRows() == null) {
            return result;
        }
        try {
            return result.opened(
                    SealedRows.open(
                            result.sealedRows(),
                            result.requestId(),
                            SealedRows.keyFor(authorization, result.requestId())));
        } catch (IllegalArgumentException e) {
            return StatementResult.failed(
                            result.requestId(),
                            StatementError.of(
                                    ROWS_SEALED_FOR_ANOTHER,
                                    "The rows of request "
                                            + result.requestId()
                                            + " were sealed with a key this credential does not"
                                            + " give (one its command carried, or another"
                                            + " credential's).",
                                    "the query again under a new request id"),
                            result.processedAt())
                    .by(result.principal());
        }
    }

    private synchronized void startFollowing() {
        if (follower != null) {
            return;
        }
        follower = new Thread(this::follow, "ddl-results-follower");
        follower.setDaemon(true);
        follower.start();
    }

    private void awaitCaughtUp(Duration patience) {
        startFollowing();
        try {
            if (!caughtUp.await(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new ServiceNotReadyException(
                        "this ddl-service instance stands by and has not read "
                                + Topics.DDL_RESULTS
                                + " yet");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading " + Topics.DDL_RESULTS, e);
        }
    }

    /** Reads every result from the start, then each new one, until closed; retried on errors. */
    private void follow() {
        while (!stopped) {
            try {
                followOnce();
            } catch (RuntimeException e) {
                LOG.warnf("following %s failed (again in 2 s): %s", Topics.DDL_RESULTS, e);
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void followOnce() {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (var consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(Topics.DDL_RESULTS, Duration.ofSeconds(30)).stream()
                            .map(info -> new TopicPartition(Topics.DDL_RESULTS, info.partition()))
                            .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (!stopped) {
                consumer.poll(Duration.ofMillis(200)).forEach(this::take);
                if (partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p))) {
                    caughtUp.countDown();
                }
            }
        }
    }

    private void take(ConsumerRecord<String, String> record) {
        if (record.value() == null
                || !Contracts.STATEMENT_RESULT_V1
                        .type()
                        .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
            return;
        }
        StatementResult result;
        try {
            result = codec.decode(Contracts.STATEMENT_RESULT_V1, record.value());
        } catch (RuntimeException e) {
            return; // the active instance dead-letters what it cannot read back; nothing to add
        }
        results.put(result.requestId(), result);
        CompletableFuture<StatementResult> waiter = waiting.get(result.requestId());
        if (waiter != null) {
            waiter.complete(result);
        }
    }

    @Override
    public void close() {
        stopped = true;
        commands.close();
    }
}
