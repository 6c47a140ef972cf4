package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.pipelines.PipelineManagerTest;
import io.mtables.planning.WarmUp;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming job's settings, as Flink reads them. */
class JobOptionsTest {

    @TempDir Path dataDir;

    @Test
    void checkpointsAtThePlansIntervalExactlyOnce() {
        JobManagerConfig config = PipelineManagerTest.config(dataDir);
        var plan = WarmUp.plan(); // a checkpoint every 500 ms (FRESHNESS 1 s)

        Configuration flink =
                Configuration.fromMap(
                        JobOptions.streaming(
                                WarmUp.definition(), plan, config, new Locations(config), null));

        assertThat(flink.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofMillis(500));
        assertThat(flink.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE))
                .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
    }

    @Test
    void chainedOperatorsHandRecordsOnWithoutCopies() {
        JobManagerConfig config = PipelineManagerTest.config(dataDir);

        Configuration flink =
                Configuration.fromMap(
                        JobOptions.streaming(
                                WarmUp.definition(),
                                WarmUp.plan(),
                                config,
                                new Locations(config),
                                null));

        assertThat(flink.get(PipelineOptions.OBJECT_REUSE)).isTrue();
    }
}
