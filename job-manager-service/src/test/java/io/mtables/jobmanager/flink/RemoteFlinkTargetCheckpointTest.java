package io.mtables.jobmanager.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint asked of a job whose tasks are still starting (a restored job, a switched one) is
 * refused by the target itself, before Flink is asked, so the job manager asks again at its next
 * look; once the tasks run, it is taken. Flink refuses it too, but in the packaged service Flink's
 * client cannot read that refusal (its cause's class is not on the class loader it reads with) and
 * asked for the result again every 3 s for a minute, logging an error each time (bin/bench
 * evolution, docs/benchmarks.md). Here, on the test's class path, Flink's refusal would be read: so
 * the test tells the two apart by the exception. Also: what a job's sources read is counted for any
 * source, over the same REST reads.
 */
class RemoteFlinkTargetCheckpointTest {

    private static MiniCluster cluster;
    private static RemoteFlinkTarget target;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setNumSlotsPerTaskManager(2)
                                // REST metrics as fresh as the embedded cluster's
                                .setConfiguration(
                                        Configuration.fromMap(
                                                java.util.Map.of(
                                                        "metrics.fetcher.update-interval",
                                                        "250 ms")))
                                .build());
        cluster.start();
        target =
                new RemoteFlinkTarget(
                        "127.0.0.1",
                        cluster.getRestAddress().join().getPort(),
                        List.of(),
                        Optional.empty());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        target.close();
        cluster.close();
    }

    @Test
    void aCheckpointIsRefusedAtOnceWhileTasksStartAndTakenOnceTheyRun() throws Exception {
        Configuration configuration = target.clientConfiguration();
        configuration.setString("execution.checkpointing.interval", "1 h"); // none by itself
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(configuration);
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).map(new SlowToOpen()).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("slow to open");
        String jobId = job.getJobID().toHexString();
        try {
            long asked = System.nanoTime();
            var refused = target.triggerCheckpoint(jobId);
            ExecutionException thrown =
                    assertThrows(ExecutionException.class, () -> refused.get(5, TimeUnit.SECONDS));
            assertInstanceOf(FlinkUnavailableException.class, thrown.getCause());
            assertTrue(
                    System.nanoTime() - asked < Duration.ofSeconds(2).toNanos(),
                    "refused at once, not after Flink's client gave up asking");

            FlinkRestReads reads =
                    new FlinkRestReads("http://127.0.0.1:" + port(), HttpClient.newHttpClient());
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> reads.allTasksRunning(jobId).orElse(false));
            long id = target.triggerCheckpoint(jobId).get(30, TimeUnit.SECONDS);
            assertEquals(1, id, "the job's first checkpoint");
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * What a job's sources have read, whatever they are: a source that cannot say what it has left
     * (a Paimon table in a FULL refresh; here a sequence) still counts what it read.
     */
    @Test
    void theRecordsEverySourceReadAreCountedWhetherOrNotItSaysWhatIsLeft() throws Exception {
        StreamExecutionEnvironment env =
                new StreamExecutionEnvironment(target.clientConfiguration());
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).map(new Slow()).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("a sequence read slowly");
        String jobId = job.getJobID().toHexString();
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> target.sourceRecordsRead(jobId).orElse(0) >= 10);
            assertTrue(
                    target.sourceProgress(jobId).isEmpty(),
                    "its metrics registered, a sequence still cannot say what it has left");
            long first = target.sourceRecordsRead(jobId).getAsLong();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> target.sourceRecordsRead(jobId).orElse(0) > first);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    private static int port() {
        return cluster.getRestAddress().join().getPort();
    }

    /** About a record a millisecond. */
    private static final class Slow extends RichMapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws InterruptedException {
            Thread.sleep(1);
            return value;
        }
    }

    /** Holds its task in INITIALIZING for 3 s, as a restore of large state does. */
    private static final class SlowToOpen extends RichMapFunction<Long, Long> {
        @Override
        public void open(OpenContext context) throws Exception {
            Thread.sleep(3_000);
        }

        @Override
        public Long map(Long value) {
            return value;
        }
    }
}
