package io.mtables.schemas.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.tick.TickIds;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The job names written and read back, including tables and refresh ids with colons in them. */
class JobNamesTest {

    @Test
    void aStreamingJobsNameReadsBack() {
        String name = JobNames.streaming("default_catalog.shop.orders", 12, "0a1b2c3d4e5f");

        assertThat(name).isEqualTo("mt:default_catalog.shop.orders:v12:q0a1b2c3d4e5f");
        assertThat(JobNames.parse(name))
                .contains(
                        new JobNames.Streaming("default_catalog.shop.orders", 12, "0a1b2c3d4e5f"));
    }

    @Test
    void aRefreshOfATickReadsBackWithItsScheduledTime() {
        Instant at = Instant.parse("2026-12-01T13:00:00Z");
        String name =
                JobNames.refresh(
                        "default_catalog.shop.daily",
                        3,
                        TickIds.scheduled("default_catalog.shop.daily", at));

        var parsed = (JobNames.Refresh) JobNames.parse(name).orElseThrow();
        assertThat(parsed.table()).isEqualTo("default_catalog.shop.daily");
        assertThat(parsed.version()).isEqualTo(3);
        assertThat(TickIds.scheduledTime(parsed.refreshId())).contains(at);
    }

    @Test
    void aTableWithAColonInItsNameReadsBack() {
        assertThat(JobNames.parse(JobNames.streaming("default_catalog.shop.a:b", 1, "ff")))
                .contains(new JobNames.Streaming("default_catalog.shop.a:b", 1, "ff"));
        assertThat(JobNames.parse(JobNames.refresh("default_catalog.shop.a:v2:b", 1, "r:1")))
                .contains(new JobNames.Refresh("default_catalog.shop.a:v2:b", 1, "r:1"));
    }

    @Test
    void otherNamesAreNotOurs() {
        assertThat(JobNames.isOurs("insert-into_default_catalog.x")).isFalse();
        assertThat(JobNames.parse("insert-into_default_catalog.x")).isEmpty();
        assertThat(JobNames.parse("mt:default_catalog.shop.t")).as("ours but malformed").isEmpty();
        assertThat(JobNames.parse("mt:default_catalog.shop.t:vx:q00")).isEmpty();
        assertThat(JobNames.parse(null)).isEmpty();
    }

    @Test
    void aRequestIdIsNoScheduledTime() {
        assertThat(TickIds.scheduledTime("ci-run-4711")).isEmpty();
        assertThat(TickIds.scheduledTime("default_catalog.shop.t@yesterday")).isEmpty();
    }
}
