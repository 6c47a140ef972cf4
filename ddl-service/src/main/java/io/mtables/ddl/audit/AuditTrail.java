package io.mtables.ddl.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.Topics;
import io.mtables.schemas.ddl.StatementAudited;
import io.mtables.schemas.ddl.StatementResult;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Writes the audit trail: one {@code StatementAudited.v1} on {@code mt.ddl.audit} for every
 * statement this instance answered over REST or Kafka, refusals included (an unauthenticated
 * sender's too), as its answer goes out. The records are written in order by a thread of their own
 * from a bounded queue, so that no caller, and no flood of unauthenticated requests, waits on the
 * broker; a record the broker did not take, or that found the queue full, is counted ({@code
 * mt_audit_write_failures_total}) and logged, and the statement's answer stands.
 */
@ApplicationScoped
public class AuditTrail {

    private static final Logger LOG = Logger.getLogger(AuditTrail.class);

    /** Records waiting for the broker; beyond that, one is counted as failed, not queued. */
    static final int QUEUE = 10_000;

    private final Clock clock;
    private final Counter failures;
    private final ThreadPoolExecutor writer =
            new ThreadPoolExecutor(
                    1,
                    1,
                    0,
                    TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(QUEUE),
                    task -> {
                        Thread thread = new Thread(task, "audit-writer");
                        thread.setDaemon(true);
                        return thread;
                    });
    private volatile KafkaLog log;

    public AuditTrail(Clock clock, MeterRegistry registry) {
        this.clock = clock;
        this.failures =
                Counter.builder("mt.audit.write.failures")
                        .description("Audit records the broker did not take")
                        .register(registry);
    }

    void onStart(
            @Observes StartupEvent start,
            @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "quarkus.application.name") String serviceName) {
        log = new KafkaLog(Topics.DDL_AUDIT, serviceName, KafkaLog.clientConfig(kafka));
    }

    void onStop(@Observes ShutdownEvent stop) throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(10, TimeUnit.SECONDS); // what is queued is written first
        if (log != null) {
            log.close();
        }
    }

    /**
     * Records one answered statement.
     *
     * @param via {@code rest}, {@code kafka} or {@code wire}
     * @param client the caller's address, or the command's position
     * @param principal the authenticated sender, null when not authenticated
     * @param statement its text, null when none could be read
     * @param result its answer
     */
    public void record(
            String via, String client, String principal, String statement, StatementResult result) {
        StatementAudited audited =
                new StatementAudited(
                        principal,
                        via,
                        client,
                        result.requestId(),
                        statement == null ? null : sha256(statement),
                        statement == null ? null : StatementKinds.of(statement),
                        result.status() == StatementResult.Status.SUCCEEDED ? result.table() : null,
                        result.status(),
                        result.error() == null ? null : result.error().reason(),
                        clock.instant());
        String key = result.requestId() != null ? result.requestId() : UUID.randomUUID().toString();
        try {
            writer.execute(() -> write(key, audited));
        } catch (RejectedExecutionException full) {
            failed(audited, "the queue of " + QUEUE + " records waiting for the broker is full");
        }
    }

    private void write(String key, StatementAudited audited) {
        try {
            log.append(Contracts.STATEMENT_AUDITED_V1, key, audited);
        } catch (RuntimeException e) {
            failed(audited, e.toString());
        }
    }

    private void failed(StatementAudited audited, String why) {
        failures.increment();
        LOG.errorf(
                "the audit record of %s's statement (%s) was not written: %s",
                audited.principal(), audited.client(), why);
    }

    static String sha256(String statement) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(statement.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
