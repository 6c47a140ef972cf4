package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.pipelines.Pipeline.Status;
import io.mtables.jobmanager.pipelines.TableLifecycle.Event;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TableLifecycleTest {

    /**
     * Every event from every status: the next status from INITIALIZING, QUEUED, ACTIVATED,
     * SUSPENDED and FAILED, each by its first letter. The same table is in DESIGN.md.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "JOB_SUBMITTED     | I I I I I",
                "JOB_RUNNING       | A Q A S F",
                "JOB_REATTACHED    | A A A A A",
                "WAITING_FOR_SLOTS | Q Q Q Q Q",
                "FULL_PLAN_APPLIED | A A A A A",
                "REFRESH_SUCCEEDED | A A A A A",
                "FAILED            | F F F S F",
                "PLAN_REFUSED      | F F F F F",
                "TOO_MANY_FAILURES | S S S S S",
                "SUSPENDED         | S S S S S",
                "RESUMED           | I I I I I",
                "INPUT_REPLACED    | I I A S F",
            })
    void everyEventFromEveryStatus(Event event, String nextByStatus) {
        String[] next = nextByStatus.strip().split(" ");

        assertThat(next).hasSize(Status.values().length);
        for (Status current : Status.values()) {
            Status expected =
                    Arrays.stream(Status.values())
                            .filter(status -> status.name().startsWith(next[current.ordinal()]))
                            .findFirst()
                            .orElseThrow();
            assertThat(TableLifecycle.next(current, event))
                    .as("%s from %s", event, current)
                    .isEqualTo(expected);
        }
    }

    /** The table above names every event once: a new one fails here until it is added. */
    @Test
    void theTableNamesEveryEvent() throws NoSuchMethodException {
        String[] rows =
                TableLifecycleTest.class
                        .getDeclaredMethod("everyEventFromEveryStatus", Event.class, String.class)
                        .getAnnotation(CsvSource.class)
                        .value();

        assertThat(Arrays.stream(rows).map(row -> Event.valueOf(row.split("\\|")[0].strip())))
                .containsExactlyInAnyOrder(Event.values());
    }

    @ParameterizedTest
    @CsvSource({"INITIALIZING, JOB_RUNNING, ACTIVATED", "SUSPENDED, FAILED, SUSPENDED"})
    void aPipelineMovesOnlyThroughItsEvents(Status from, Event event, Status to) {
        Pipeline pipeline = new Pipeline("default_catalog.shop.t");
        pipeline.on(from == Status.SUSPENDED ? Event.SUSPENDED : Event.JOB_SUBMITTED);
        assertThat(pipeline.status()).isEqualTo(from);

        pipeline.on(event);

        assertThat(pipeline.status()).isEqualTo(to);
    }
}
