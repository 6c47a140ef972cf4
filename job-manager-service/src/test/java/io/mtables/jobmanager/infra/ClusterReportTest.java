package io.mtables.jobmanager.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.jobmanager.flink.FlinkJob;
import io.mtables.schemas.cluster.ClusterStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterReportTest {

    private static final String OWN = "http://127.0.0.1:8085";

    @Test
    void theWebUrlIsTheClustersOwnUnlessSetAndNoneMeansNoLinks() {
        assertThat(ClusterReport.webUrl(Optional.empty(), OWN)).isEqualTo(OWN);
        assertThat(ClusterReport.webUrl(Optional.of("none"), OWN)).isNull();
        assertThat(ClusterReport.webUrl(Optional.of(" https://flink.example.com "), OWN))
                .isEqualTo("https://flink.example.com");
        assertThatThrownBy(() -> ClusterReport.webUrl(Optional.of("flink.example.com:8081"), OWN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "mt.flink.web-url must be where a browser reaches Flink's web UI, an"
                            + " http:// or https:// URL, or none; was 'flink.example.com:8081'");
    }

    @Test
    void onlyOurJobsThatHaveNotEndedByTable() {
        List<ClusterStatus.Job> jobs =
                ClusterReport.ourJobs(
                        List.of(
                                new FlinkJob(
                                        "b".repeat(32), "mt:default_catalog.db.b:v1:q0", "RUNNING"),
                                new FlinkJob(
                                        "a".repeat(32),
                                        "mt:default_catalog.db.a:v2:refresh:r1",
                                        "INITIALIZING"),
                                new FlinkJob(
                                        "c".repeat(32),
                                        "mt:default_catalog.db.c:v1:q0",
                                        "FINISHED"),
                                new FlinkJob("d".repeat(32), "someone else's job", "RUNNING")));
        assertThat(jobs)
                .containsExactly(
                        new ClusterStatus.Job(
                                "a".repeat(32),
                                "mt:default_catalog.db.a:v2:refresh:r1",
                                "default_catalog.db.a",
                                ClusterStatus.Kind.REFRESH,
                                "INITIALIZING"),
                        new ClusterStatus.Job(
                                "b".repeat(32),
                                "mt:default_catalog.db.b:v1:q0",
                                "default_catalog.db.b",
                                ClusterStatus.Kind.STREAMING,
                                "RUNNING"));
    }
}
