package io.mtables.jobmanager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;

class ReadyBatchEnvironmentsTest {

    private final List<Map<String, String>> created = new ArrayList<>();
    private final ReadyBatchEnvironments environments =
            new ReadyBatchEnvironments(
                    options -> {
                        created.add(options);
                        return TableEnvironment.create(EnvironmentSettings.inBatchMode());
                    });

    @Test
    void aReleasedEnvironmentServesTheNextJobWithTheSameOptionsUnderItsOwnName() {
        TableEnvironment first =
                environments.take(
                        Map.of("parallelism.default", "1", "pipeline.name", "mt:a:v1:refresh:1"));
        environments.release(
                Map.of("parallelism.default", "1", "pipeline.name", "mt:a:v1:refresh:1"), first);

        TableEnvironment second =
                environments.take(
                        Map.of("parallelism.default", "1", "pipeline.name", "mt:b:v3:refresh:7"));

        assertThat(second).isSameAs(first);
        assertThat(second.getConfig().get(PipelineOptions.NAME)).isEqualTo("mt:b:v3:refresh:7");
        assertThat(created)
                .as("the job's name is not part of the environment")
                .containsExactly(Map.of("parallelism.default", "1"));
    }

    @Test
    void otherOptionsGetAnEnvironmentOfTheirOwn() {
        TableEnvironment plain = environments.take(Map.of("parallelism.default", "1"));
        environments.release(Map.of("parallelism.default", "1"), plain);

        TableEnvironment resumed =
                environments.take(
                        Map.of(
                                "parallelism.default",
                                "1",
                                "table.exec.resource.default-parallelism",
                                "2"));

        assertThat(resumed).isNotSameAs(plain);
        assertThat(created).hasSize(2);
    }

    @Test
    void anEnvironmentNotGivenBackIsNeverReused() {
        TableEnvironment failed = environments.take(Map.of("parallelism.default", "1"));

        TableEnvironment next = environments.take(Map.of("parallelism.default", "1"));

        assertThat(next).isNotSameAs(failed);
    }

    @Test
    void onlyAFewAreKept() {
        for (int i = 0; i < 6; i++) {
            Map<String, String> options = Map.of("parallelism.default", String.valueOf(i + 1));
            environments.release(options, environments.take(options));
        }

        assertThat(environments.size()).isEqualTo(4);
    }
}
