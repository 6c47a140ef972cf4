package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mtables.jobmanager.Tables;
import io.mtables.jobmanager.infra.RefreshEvents;
import io.mtables.jobmanager.infra.RefreshMetrics;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.catalog.TableDefinition.QueryChange;
import io.mtables.schemas.catalog.TableDefinition.Verdict;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.SwitchedOver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge as a step of a switch-over: run once, tried again after a failure, the switch-over
 * given up after the third; a new query whose rows begin after the cut-over is reported.
 */
class SwitchBridgesTest {

    private static final String TABLE = "default_catalog.shop.clicks_per_minute";
    private static final HistoryBridge BRIDGE =
            new HistoryBridge("window_end", "the first 300 records of cdc.shop.clicks");

    @TempDir Path dataDir;

    private final List<RefreshFailed> notices = new ArrayList<>();
    private int runs;

    @Test
    void aBridgeThatFailsIsTriedAgainAndAfterTheThirdFailureTheSwitchOverIsGivenUp() {
        SwitchBridges bridges =
                bridges(
                        (definition, bridge, options, timeout) -> {
                            runs++;
                            throw new IllegalStateException(
                                    "batch job failed", new RuntimeException("no space left"));
                        });
        Pipeline pipeline = staging(BRIDGE);

        assertThat(bridges.bridge(pipeline, false))
                .isInstanceOf(SwitchBridges.Outcome.TryAgain.class);
        assertThat(bridges.bridge(pipeline, false))
                .isInstanceOf(SwitchBridges.Outcome.TryAgain.class);
        SwitchBridges.Outcome third = bridges.bridge(pipeline, false);

        assertThat(runs).isEqualTo(3);
        assertThat(notices)
                .hasSize(2)
                .allSatisfy(
                        notice ->
                                assertThat(notice.reason())
                                        .isEqualTo(
                                                "the switch-over could not bridge the old query's"
                                                    + " rows into the new table (no space left);"
                                                    + " the old query's rows keep serving the table"
                                                    + " and the bridge is tried again"));
        assertThat(third)
                .isInstanceOfSatisfying(
                        SwitchBridges.Outcome.GiveUp.class,
                        givenUp ->
                                assertThat(givenUp.reason())
                                        .endsWith(
                                                "the old query's rows keep serving the table, and"
                                                        + " after 3 tries the switch-over starts"
                                                        + " again"));
        assertThat(pipeline.staging.bridgeDone).isFalse();
    }

    @Test
    void aBridgeRunsOnceAndANewQueryWhoseRowsBeginAfterTheCutOverIsReported() {
        var kept =
                new SwitchedOver.Bridged(
                        "window_end", "2026-12-03 10:05:00", "2026-12-03 10:07:00");
        SwitchBridges bridges =
                bridges(
                        (definition, bridge, options, timeout) -> {
                            runs++;
                            assertThat(bridge).isEqualTo(BRIDGE);
                            assertThat(options.get("pipeline.name")).contains("bridge-v2");
                            return Optional.of(kept);
                        });
        Pipeline pipeline = staging(BRIDGE);

        assertThat(bridges.bridge(pipeline, false)).isInstanceOf(SwitchBridges.Outcome.Done.class);
        assertThat(bridges.bridge(pipeline, false)).isInstanceOf(SwitchBridges.Outcome.Done.class);

        assertThat(runs).as("once per switch").isEqualTo(1);
        assertThat(pipeline.staging.bridged).isEqualTo(kept);
        assertThat(notices)
                .singleElement()
                .extracting(RefreshFailed::reason)
                .isEqualTo(
                        "bridged at window_end 2026-12-03 10:05:00, but the new query's rows begin"
                                + " at 2026-12-03 10:07:00: the windows between them may be missing"
                                + " or partial (the sources no longer held their changes)");
    }

    @Test
    void noBridgeRunsWithoutOneInTheChangeOrWhenAnInputWasReplaced() {
        SwitchBridges bridges =
                bridges(
                        (definition, bridge, options, timeout) -> {
                            runs++;
                            return Optional.empty();
                        });

        assertThat(bridges.bridge(staging(null), false))
                .isInstanceOf(SwitchBridges.Outcome.Done.class);
        assertThat(bridges.bridge(staging(BRIDGE), true))
                .as("an input replaced is read whole again")
                .isInstanceOf(SwitchBridges.Outcome.Done.class);
        assertThat(runs).isZero();
        assertThat(notices).isEmpty();
    }

    private SwitchBridges bridges(SwitchBridges.Bridge run) {
        RefreshEvents events =
                new RefreshEvents(null, new RefreshMetrics(new SimpleMeterRegistry())) {
                    @Override
                    public void failed(RefreshFailed event) {
                        notices.add(event);
                    }
                };
        var config = PipelineManagerTest.config(dataDir);
        var warehouse = Warehouse.at(dataDir.resolve("warehouse").toUri().toString());
        return new SwitchBridges(
                run,
                config,
                new PipelineReports(
                        events,
                        new PaimonSnapshots(warehouse),
                        config,
                        new TestClock(() -> Instant.parse("2026-12-03T10:08:00Z"))));
    }

    /** A table switching over to version 2, whose change carries {@code bridge} (or none). */
    private static Pipeline staging(HistoryBridge bridge) {
        Pipeline pipeline = new Pipeline(TABLE);
        pipeline.definition =
                Tables.materialized(
                                TABLE,
                                2,
                                List.of(),
                                List.of(),
                                "SELECT window_end, COUNT(*) AS clicks FROM ...",
                                List.of(),
                                TableDefinition.Status.ACTIVE)
                        .withQueryChange(
                                new QueryChange(
                                        1,
                                        Verdict.INCOMPATIBLE,
                                        "DISTINCT aggregates were added",
                                        "a switch-over",
                                        null,
                                        bridge));
        pipeline.plan = Tables.continuous(TABLE, 2, List.of(), Duration.ofSeconds(2));
        pipeline.staging = new Pipeline.Staging("0f", 2, 1, Instant.now());
        return pipeline;
    }
}
