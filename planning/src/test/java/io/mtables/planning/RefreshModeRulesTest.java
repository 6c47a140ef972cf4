package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.RefreshMode;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.Status;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import io.mtables.schemas.plan.RefreshPlan.Warning;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RefreshModeRulesTest {

    private static final PlannerSettings FLINK_DEFAULTS = PlannerSettings.defaults();
    private static final QueryAnalysis UPSERTS =
            QueryAnalysis.streamable("[I,UA,D]").withUniqueKeys(List.of(List.of("ds")));
    private static final QueryAnalysis CANNOT_STREAM =
            QueryAnalysis.notStreamable("Sort on a non-time-attribute field is not supported.");

    @ParameterizedTest(name = "{0} {1} {2} -> {3} {4}")
    @CsvSource({
        "AUTO, 29, MINUTE, CONTINUOUS, ACTIVE, the freshness 29 min is below the threshold 30 min",
        "AUTO, 30, MINUTE, FULL, ACTIVE, the freshness 30 min is not below the threshold 30 min",
        // 31 minutes is FULL by the threshold, and no cron period: ddl-service refuses it at
        // CREATE, the planner refuses it too should it ever arrive (a threshold configured
        // differently).
        "AUTO, 31, MINUTE, FULL, REFUSED, the freshness 31 min is not below the threshold 30 min",
        "AUTO, 5, SECOND, CONTINUOUS, ACTIVE, the freshness 5 s is below",
        "AUTO, 1, DAY, FULL, ACTIVE, the freshness 1 day is not below",
        "CONTINUOUS, 2, DAY, CONTINUOUS, ACTIVE, REFRESH_MODE = CONTINUOUS was declared; a declared"
                + " mode wins",
        "FULL, 1, MINUTE, FULL, ACTIVE, REFRESH_MODE = FULL was declared; a declared mode wins",
    })
    void modeFollowsTheDeclarationElseTheThreshold(
            String declared,
            int interval,
            String unit,
            Mode expected,
            Status status,
            String reason) {
        RefreshPlan plan = plan(table(RefreshMode.valueOf(declared), interval, unit, Map.of()));

        assertThat(plan.status()).isEqualTo(status);
        assertThat(plan.mode()).isEqualTo(status == Status.REFUSED ? null : expected);
        assertThat(plan.reasons().get(0)).startsWith(expected + " because").contains(reason);
        assertThat(plan.freshnessDeclared()).isTrue();
    }

    @Test
    void noFreshnessUnderAutoIsContinuousAtThreeMinutes() {
        RefreshPlan plan = plan(table(RefreshMode.AUTO, null, null, Map.of()));

        assertThat(plan.mode()).isEqualTo(Mode.CONTINUOUS);
        assertThat(plan.freshness()).isEqualTo(new RefreshPlan.Freshness(3, "MINUTE"));
        assertThat(plan.checkpointInterval()).isEqualTo(Duration.ofSeconds(90));
        assertThat(plan.freshnessDeclared()).isFalse();
        assertThat(plan.reasons())
                .contains(
                        "No FRESHNESS was declared: the CONTINUOUS default 3 min applies"
                                + " (materialized-table.default-freshness.continuous).");
    }

    @Test
    void noFreshnessUnderFullIsOneHourOnTheHourlyCron() {
        RefreshPlan plan = plan(table(RefreshMode.FULL, null, null, Map.of()));

        assertThat(plan.freshness()).isEqualTo(new RefreshPlan.Freshness(1, "HOUR"));
        assertThat(plan.cron()).isEqualTo("0 0 0/1 * * ? *");
        assertThat(plan.reasons())
                .contains(
                        "No FRESHNESS was declared: the FULL default 1 h applies"
                                + " (materialized-table.default-freshness.full).");
    }

    @Test
    void defaultsAndThresholdComeFromSettings() {
        var settings =
                new PlannerSettings(
                        Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(10));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, null, null, Map.of()),
                        settings,
                        UPSERTS,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.FULL);
        assertThat(plan.freshness()).isEqualTo(new RefreshPlan.Freshness(10, "MINUTE"));
        assertThat(plan.cron()).isEqualTo("0 0/10 * * * ? *");
        assertThat(plan.timeZone()).as("the default time zone of periods").isEqualTo("UTC");
    }

    @Test
    void aFullPlanCarriesTheTimeZoneOfItsPeriodsAndAContinuousOneNone() {
        var settings =
                new PlannerSettings(
                        Duration.ofMinutes(30),
                        Duration.ofMinutes(3),
                        Duration.ofHours(1),
                        ZoneId.of("Europe/Paris"));

        RefreshPlan full =
                RefreshModeRules.plan(
                        table(RefreshMode.FULL, 1, "DAY", Map.of()),
                        settings,
                        UPSERTS,
                        Instant.EPOCH);
        RefreshPlan continuous =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "MINUTE", Map.of()),
                        settings,
                        UPSERTS,
                        Instant.EPOCH);

        assertThat(full.timeZone()).isEqualTo("Europe/Paris");
        assertThat(continuous.mode()).isEqualTo(Mode.CONTINUOUS);
        assertThat(continuous.timeZone()).isNull();
    }

    @Test
    void continuousCheckpointsAtHalfTheFreshnessSoTheLagStaysWithinIt() {
        RefreshPlan plan = plan(table(RefreshMode.AUTO, 5, "MINUTE", Map.of()));
        RefreshPlan seconds = plan(table(RefreshMode.AUTO, 5, "SECOND", Map.of()));

        assertThat(plan.checkpointInterval()).isEqualTo(Duration.ofSeconds(150));
        assertThat(seconds.checkpointInterval()).isEqualTo(Duration.ofMillis(2500));
        assertThat(plan.cron()).isNull();
        assertThat(plan.reasons())
                .contains(
                        "Checkpoint every 2.5 min, half the freshness: each checkpoint commits a"
                                + " snapshot, so the newest change a reader sees is at most one"
                                + " interval and the commit's own time old, within the freshness.");
        assertThat(seconds.reasons())
                .anyMatch(
                        reason -> reason.startsWith("Checkpoint every 2.5 s, half the freshness"));
        assertThat(plan.warnings()).isEmpty();
    }

    @Test
    void fullTakesFlinksCronAndTheDateFormatterPartition() {
        RefreshPlan plan =
                plan(
                        table(
                                RefreshMode.AUTO,
                                1,
                                "DAY",
                                Map.of("partition.fields.ds.date-formatter", "yyyy-MM-dd")));

        assertThat(plan.cron()).isEqualTo("0 0 0 * * ? *");
        assertThat(plan.checkpointInterval()).isNull();
        assertThat(plan.partitionFormatters()).containsExactly(Map.entry("ds", "yyyy-MM-dd"));
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.contains(
                                        "overwrites only the partition ds = its scheduled time"
                                                + " formatted 'yyyy-MM-dd'"));
    }

    @Test
    void fullWithoutFormatterOverwritesTheWholeTable() {
        assertThat(plan(table(RefreshMode.FULL, 15, "MINUTE", Map.of())).reasons())
                .contains("Each scheduled refresh overwrites the whole table.");
    }

    @Test
    void freshnessUnderTenSecondsWarnsAboutCheckpointCost() {
        RefreshPlan plan = plan(table(RefreshMode.AUTO, 5, "SECOND", Map.of()));

        assertThat(plan.warnings())
                .extracting(Warning::code)
                .containsExactly("FreshnessBelowTenSeconds");
        assertThat(plan(table(RefreshMode.AUTO, 10, "SECOND", Map.of())).warnings()).isEmpty();
    }

    @Test
    void fullFreshnessThatIsNoCronPeriodIsRefusedWithTheAllowedPeriods() {
        var settings =
                new PlannerSettings(
                        Duration.ofSeconds(10), Duration.ofMinutes(3), Duration.ofHours(1));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 7, "MINUTE", Map.of()),
                        settings,
                        UPSERTS,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.mode()).isNull();
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                                "Refused: FULL needs a freshness that is a cron"
                                                        + " period")
                                        && r.contains("MINUTE 1, 2, 3"));
    }

    @Test
    void suspendedTableIsPlannedAsSuspended() {
        TableDefinition table = table(RefreshMode.AUTO, 5, "MINUTE", Map.of());
        TableDefinition suspended =
                TableDefinitionBuilder.builder(table)
                        .version(2)
                        .status(TableDefinition.Status.SUSPENDED)
                        .resumeOptions(Map.of())
                        .requestId(null)
                        .queryChange(null)
                        .previewedPlan(null)
                        .owner(null)
                        .build();

        RefreshPlan plan = plan(suspended);

        assertThat(plan.status()).isEqualTo(Status.SUSPENDED);
        assertThat(plan.definitionVersion()).isEqualTo(2);
        assertThat(plan.reasons()).last().asString().startsWith("Suspended");
    }

    @Test
    void aQueryThatCannotStreamFallsBackToFullUnderAuto() {
        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        CANNOT_STREAM,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.FULL);
        assertThat(plan.cron()).isEqualTo("0 0/5 * * * ? *");
        assertThat(plan.reasons().get(0))
                .isEqualTo(
                        "FULL because the query cannot run as a stream (Flink: Sort on a"
                                + " non-time-attribute field is not supported.), whatever the"
                                + " freshness.");
    }

    @Test
    void aQueryThatCannotStreamIsRefusedUnderContinuous() {
        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.CONTINUOUS, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        CANNOT_STREAM,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.reasons().get(0))
                .startsWith(
                        "Refused: REFRESH_MODE = CONTINUOUS was declared, but the query cannot run"
                                + " as a stream (Flink: Sort");
    }

    @Test
    void theChangelogIsExplained() {
        assertThat(plan(table(RefreshMode.AUTO, 5, "MINUTE", Map.of())).reasons())
                .contains(
                        "Flink's planner runs the query as a stream with the changelog [I,UA,D]:"
                                + " rows are updated and deleted in place.");
        RefreshPlan appendOnly =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        QueryAnalysis.streamable("[I]"),
                        Instant.EPOCH);
        assertThat(appendOnly.changelogMode()).isEqualTo("[I]");
        assertThat(appendOnly.reasons()).anyMatch(r -> r.endsWith("rows are only inserted."));
    }

    @Test
    void anUpdatingStreamIsWrittenOnTheKeyFlinkDerives() {
        RefreshPlan plan = plan(table(RefreshMode.AUTO, 5, "MINUTE", Map.of()));

        assertThat(plan.upsertKey())
                .isEqualTo(new UpsertKey(List.of("ds"), UpsertKey.Origin.DERIVED));
        assertThat(plan.reasons())
                .contains("Upsert on (ds), the key Flink's planner derives from the query.");
    }

    @Test
    void theSmallestDerivedKeyIsChosenAndTheOthersMentioned() {
        var twoKeys =
                QueryAnalysis.streamable("[I,UA,D]")
                        .withUniqueKeys(List.of(List.of("id"), List.of("ds", "cat")));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        twoKeys,
                        Instant.EPOCH);

        assertThat(plan.upsertKey().columns()).containsExactly("id");
        assertThat(plan.reasons())
                .contains(
                        "Upsert on (id), the key Flink's planner derives from the query (smallest"
                                + " of 2 keys; declare PRIMARY KEY to choose another).");
    }

    @Test
    void aDeclaredKeyWinsAndIsNotWarnedAboutWhenFlinkProvesIt() {
        RefreshPlan plan =
                plan(withPrimaryKey(table(RefreshMode.AUTO, 5, "MINUTE", Map.of()), "ds"));

        assertThat(plan.upsertKey())
                .isEqualTo(new UpsertKey(List.of("ds"), UpsertKey.Origin.DECLARED));
        assertThat(plan.reasons()).contains("Upsert on (ds), the declared primary key.");
        assertThat(plan.warnings()).extracting(Warning::code).doesNotContain("KeyNotProvenUnique");
    }

    @Test
    void aDeclaredKeyFlinkCannotProveIsWarnedAbout() {
        var noKey = QueryAnalysis.streamable("[I,UB,UA,D]").withUniqueKeys(List.of());

        RefreshPlan plan =
                RefreshModeRules.plan(
                        withPrimaryKey(table(RefreshMode.AUTO, 5, "MINUTE", Map.of()), "ds"),
                        FLINK_DEFAULTS,
                        noKey,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.CONTINUOUS);
        assertThat(plan.warnings()).extracting(Warning::code).contains("KeyNotProvenUnique");
        assertThat(warning(plan, "KeyNotProvenUnique"))
                .startsWith("Flink's planner cannot prove (ds) unique for this query:");
    }

    @Test
    void anUpdatingStreamWithoutAnyKeyFallsBackToFullUnderAuto() {
        var noKey =
                QueryAnalysis.streamable("[I,UB,UA,D]")
                        .withUniqueKeys(List.of())
                        .withBatch(QueryAnalysis.BatchCheck.RUNS);

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        noKey,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.FULL);
        assertThat(plan.upsertKey()).isNull();
        assertThat(plan.reasons())
                .containsSubsequence(
                        "Flink's planner derives no key from the query.",
                        "FULL instead: each refresh overwrites the table, which needs no key.");
    }

    @Test
    void anUpdatingStreamWithoutAnyKeyIsRefusedUnderContinuous() {
        var noKey = QueryAnalysis.streamable("[I,UB,UA,D]").withUniqueKeys(List.of());

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.CONTINUOUS, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        noKey,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.reasons())
                .last()
                .asString()
                .startsWith(
                        "Refused: the query produces updates and deletes, and Flink derives no key"
                                + " from it");
    }

    @Test
    void aQueryThatCannotRunAsABatchStaysContinuousUnderAuto() {
        var streamOnly =
                UPSERTS.withBatch(
                        QueryAnalysis.BatchCheck.cannot(
                                "Querying a table in batch mode is currently only possible for"
                                        + " INSERT-only table sources."));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "HOUR", Map.of()),
                        FLINK_DEFAULTS,
                        streamOnly,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.CONTINUOUS);
        assertThat(plan.checkpointInterval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(plan.reasons())
                .containsSubsequence(
                        "FULL because the freshness 1 h is not below the threshold 30 min"
                                + " (materialized-table.refresh-mode.freshness-threshold).",
                        "CONTINUOUS instead: the query cannot run as a batch (Flink: Querying a"
                                + " table in batch mode is currently only possible for INSERT-only"
                                + " table sources.), so it runs as a stream, committing at the"
                                + " freshness.");
    }

    @Test
    void aQueryThatCannotRunAsABatchIsRefusedUnderFull() {
        var streamOnly =
                UPSERTS.withBatch(QueryAnalysis.BatchCheck.cannot("only INSERT-only sources"));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.FULL, 1, "HOUR", Map.of()),
                        FLINK_DEFAULTS,
                        streamOnly,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.reasons().get(0))
                .startsWith(
                        "Refused: REFRESH_MODE = FULL was declared, but the query cannot run as a"
                                + " batch (Flink: only INSERT-only sources).");
    }

    @Test
    void aQueryThatRunsNeitherWayIsRefused() {
        var neither = CANNOT_STREAM.withBatch(QueryAnalysis.BatchCheck.cannot("no batch"));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "HOUR", Map.of()),
                        FLINK_DEFAULTS,
                        neither,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.reasons().get(0))
                .startsWith("Refused: the query runs neither as a stream (Flink: Sort")
                .contains("nor as a batch (Flink: no batch)");
    }

    @Test
    void currentTimeInAContinuousFilterIsWarnedAbout() {
        var lastDay = UPSERTS.withTimeFunctions(List.of("NOW"));

        RefreshPlan continuous =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        lastDay,
                        Instant.EPOCH);
        RefreshPlan full =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "HOUR", Map.of()),
                        FLINK_DEFAULTS,
                        lastDay,
                        Instant.EPOCH);

        assertThat(warning(continuous, "CurrentTimeInCondition"))
                .startsWith(
                        "The query filters on NOW: a stream evaluates it once, when a row arrives");
        assertThat(full.warnings())
                .extracting(Warning::code)
                .doesNotContain("CurrentTimeInCondition");
    }

    @Test
    void unboundedStateInAContinuousTableIsWarnedAbout() {
        var joinAndAggregate =
                UPSERTS.withStatefulOperators(List.of("regular join", "group aggregation"));

        RefreshPlan continuous =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        joinAndAggregate,
                        Instant.EPOCH);
        RefreshPlan full =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "HOUR", Map.of()),
                        FLINK_DEFAULTS,
                        joinAndAggregate,
                        Instant.EPOCH);

        assertThat(warning(continuous, "UnboundedState"))
                .startsWith(
                        "The stream keeps state for its regular join, group aggregation forever");
        assertThat(full.warnings()).isEmpty();
    }

    @Test
    void fullOverALatestValueSourceIsWarnedAbout() {
        var overAMaterializedTable =
                QueryAnalysis.unknown("it reads materialized table(s)")
                        .withLatestValueSources(List.of("default_catalog.shop.orders_ods"));

        RefreshPlan full =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 1, "DAY", Map.of()),
                        FLINK_DEFAULTS,
                        overAMaterializedTable,
                        Instant.EPOCH);
        RefreshPlan continuous =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        overAMaterializedTable,
                        Instant.EPOCH);

        assertThat(warning(full, "FullOverLatestValueSource"))
                .startsWith(
                        "default_catalog.shop.orders_ods hold(s) only the latest value of each"
                                + " row");
        assertThat(continuous.warnings())
                .extracting(Warning::code)
                .doesNotContain("FullOverLatestValueSource");
    }

    @Test
    void aQueryBlockedByItsUpstreamIsRefusedWithTheReasonAndNamesItsUpstream() {
        TableDefinition reader = table(RefreshMode.AUTO, 1, "HOUR", Map.of());
        reader =
                TableDefinitionBuilder.builder(reader)
                        .version(1)
                        .primaryKey(List.of())
                        .distribution(null)
                        .options(Map.of())
                        .comment(null)
                        .sources(
                                List.of(
                                        new TableDefinition.SourceTable(
                                                "default_catalog.shop.up",
                                                TableDefinition.Kind.MATERIALIZED_TABLE,
                                                1,
                                                "CREATE MATERIALIZED TABLE ...",
                                                List.of(),
                                                List.of())))
                        .resumeOptions(Map.of())
                        .createdAt(Instant.EPOCH)
                        .updatedAt(Instant.EPOCH)
                        .requestId(null)
                        .queryChange(null)
                        .previewedPlan(null)
                        .owner(null)
                        .build();

        RefreshPlan plan =
                RefreshModeRules.plan(
                        reader,
                        FLINK_DEFAULTS,
                        QueryAnalysis.blocked(
                                "it reads default_catalog.shop.up, which has no plan yet"),
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(RefreshPlan.Status.REFUSED);
        assertThat(plan.reasons())
                .containsExactly(
                        "Refused: it reads default_catalog.shop.up, which has no plan yet.");
        assertThat(plan.upstreamTables()).containsExactly("default_catalog.shop.up");
    }

    private static String warning(RefreshPlan plan, String code) {
        return plan.warnings().stream()
                .filter(w -> w.code().equals(code))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + code + " in " + plan.warnings()))
                .message();
    }

    @Test
    void aDerivedKeyThatCanBeNullIsStoredAsASyntheticKey() {
        TableDefinition nullableDs =
                withColumns(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        new TableDefinition.Column("ds", "STRING", true));

        RefreshPlan plan =
                RefreshModeRules.plan(nullableDs, FLINK_DEFAULTS, UPSERTS, Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.ACTIVE);
        assertThat(plan.upsertKey())
                .isEqualTo(new UpsertKey(List.of("ds"), UpsertKey.Origin.SYNTHETIC));
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.startsWith("Upsert on __mt_key, a NULL-safe encoding of (ds)")
                                        && r.contains("ds can be NULL"));
        assertThat(PaimonTables.primaryKey(plan, List.of())).containsExactly("__mt_key");
    }

    @Test
    void aNotNullKeyIsPreferredToASmallerNullableOne() {
        TableDefinition t =
                withColumns(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        new TableDefinition.Column("ds", "STRING", true),
                        new TableDefinition.Column("id", "BIGINT", false),
                        new TableDefinition.Column("cat", "STRING", false));
        var keys =
                QueryAnalysis.streamable("[I,UA,D]")
                        .withUniqueKeys(List.of(List.of("ds"), List.of("id", "cat")));

        RefreshPlan plan = RefreshModeRules.plan(t, FLINK_DEFAULTS, keys, Instant.EPOCH);

        assertThat(plan.upsertKey())
                .isEqualTo(new UpsertKey(List.of("id", "cat"), UpsertKey.Origin.DERIVED));
    }

    @Test
    void aGlobalAggregateHasOneRowAndIsKeyedOnAConstantSyntheticKey() {
        var oneRow = QueryAnalysis.streamable("[I,UA,D]").withUniqueKeys(List.of(List.of()));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        oneRow,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.ACTIVE);
        assertThat(plan.upsertKey())
                .isEqualTo(new UpsertKey(List.of(), UpsertKey.Origin.SYNTHETIC));
        assertThat(plan.reasons()).anyMatch(r -> r.contains("at most one row"));
        assertThat(plan.warnings())
                .extracting(RefreshPlan.Warning::code)
                .contains("NoRowWithoutInput");
    }

    @Test
    void aGlobalAggregateWhoseEmptyAnswerIsKnownHoldsItWithoutAWarning() {
        var oneRow =
                QueryAnalysis.streamable("[I,UA,D]")
                        .withUniqueKeys(List.of(List.of()))
                        .withEmptyInputRow(Arrays.asList("0", null));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        FLINK_DEFAULTS,
                        oneRow,
                        Instant.EPOCH);

        assertThat(plan.upsertKey())
                .isEqualTo(
                        new UpsertKey(
                                List.of(),
                                UpsertKey.Origin.SYNTHETIC,
                                null,
                                Arrays.asList("0", null)));
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.contains(
                                        "the table holds the row a batch query answers then: (0,"
                                                + " NULL)"));
        assertThat(plan.warnings())
                .extracting(RefreshPlan.Warning::code)
                .doesNotContain("NoRowWithoutInput");
    }

    @Test
    void aUnionAllIsKeyedOnEachBranchsNumberAndKey() {
        TableDefinition t =
                withColumns(
                        table(RefreshMode.AUTO, 5, "MINUTE", Map.of()),
                        new TableDefinition.Column("name", "STRING", true),
                        new TableDefinition.Column("id", "BIGINT", false));
        var union =
                QueryAnalysis.streamable("[I,UB,UA,D]")
                        .withUniqueKeys(List.of())
                        .withBranchKeys(List.of(List.of("id"), List.of("name")));

        RefreshPlan plan = RefreshModeRules.plan(t, FLINK_DEFAULTS, union, Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.ACTIVE);
        assertThat(plan.upsertKey())
                .isEqualTo(
                        new UpsertKey(
                                List.of("name", "id"),
                                UpsertKey.Origin.SYNTHETIC,
                                List.of(List.of("id"), List.of("name"))));
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.contains("the query is a UNION ALL")
                                        && r.contains("branch 1 on (id), branch 2 on (name)"));
    }

    @Test
    void aUnionAllWithABranchWithoutAKeyIsRefusedNamingTheBranch() {
        var union =
                QueryAnalysis.streamable("[I,UB,UA,D]")
                        .withUniqueKeys(List.of())
                        .withBranchKeys(Arrays.asList(List.of("ds"), null));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.CONTINUOUS, 5, "SECOND", Map.of()),
                        FLINK_DEFAULTS,
                        union,
                        Instant.EPOCH);

        assertThat(plan.status()).isEqualTo(Status.REFUSED);
        assertThat(plan.reasons()).anyMatch(r -> r.contains("its branch 2 of 2 has no key"));
    }

    @Test
    void fullEveryFewSecondsStreamsInsteadWhereTheQueryStreams() {
        var settings =
                new PlannerSettings(
                        Duration.ofSeconds(10), Duration.ofMinutes(3), Duration.ofHours(1));

        RefreshPlan plan =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 30, "SECOND", Map.of()),
                        settings,
                        UPSERTS,
                        Instant.EPOCH);

        assertThat(plan.mode()).isEqualTo(Mode.CONTINUOUS);
        assertThat(plan.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "CONTINUOUS instead: a FULL refresh every 30 s would start"
                                                + " a Flink batch job"));
    }

    @Test
    void fullEveryFewSecondsIsRefusedWhenDeclaredOrWhenTheQueryCannotStream() {
        RefreshPlan declared =
                RefreshModeRules.plan(
                        table(RefreshMode.FULL, 30, "SECOND", Map.of()),
                        FLINK_DEFAULTS,
                        QueryAnalysis.streamable("[I]"),
                        Instant.EPOCH);
        var settings =
                new PlannerSettings(
                        Duration.ofSeconds(1), Duration.ofMinutes(3), Duration.ofHours(1));
        RefreshPlan cannotStream =
                RefreshModeRules.plan(
                        table(RefreshMode.AUTO, 2, "SECOND", Map.of()),
                        settings,
                        QueryAnalysis.notStreamable("it reads a FULL table")
                                .withBatch(QueryAnalysis.BatchCheck.RUNS),
                        Instant.EPOCH);

        assertThat(declared.status()).isEqualTo(Status.REFUSED);
        assertThat(declared.reasons())
                .anyMatch(
                        r ->
                                r.startsWith("Refused: a FULL refresh every 30 s")
                                        && r.contains("Declare FRESHNESS of 1 MINUTE or more"));
        assertThat(cannotStream.status()).isEqualTo(Status.REFUSED);
        assertThat(cannotStream.reasons())
                .anyMatch(r -> r.contains("cannot run as a stream (it reads a FULL table)"));
    }

    @Test
    void aFullTableOverMaterializedTablesSkipsRefreshesOfUnchangedInputs() {
        TableDefinition overOds =
                withSources(
                        table(RefreshMode.FULL, 1, "HOUR", Map.of()),
                        TableDefinition.Kind.MATERIALIZED_TABLE);

        RefreshPlan plan =
                RefreshModeRules.plan(
                        overOds,
                        FLINK_DEFAULTS,
                        UPSERTS.withBatch(QueryAnalysis.BatchCheck.RUNS),
                        Instant.EPOCH);

        assertThat(plan.incremental().level())
                .isEqualTo(RefreshPlan.Incremental.Level.UNCHANGED_INPUTS);
        assertThat(plan.reasons()).contains(plan.incremental().reason());
        assertThat(plan.incremental().reason())
                .contains("(default_catalog.shop.s) have no new Paimon snapshot")
                .contains("NO_DATA");
    }

    @Test
    void aFullTableOverASourceTableOrTheClockAlwaysRefreshes() {
        TableDefinition overKafka =
                withSources(
                        table(RefreshMode.FULL, 1, "HOUR", Map.of()),
                        TableDefinition.Kind.SOURCE_TABLE);
        TableDefinition overOds =
                withSources(
                        table(RefreshMode.FULL, 1, "HOUR", Map.of()),
                        TableDefinition.Kind.MATERIALIZED_TABLE);

        RefreshPlan kafka =
                RefreshModeRules.plan(overKafka, FLINK_DEFAULTS, UPSERTS, Instant.EPOCH);
        RefreshPlan clock =
                RefreshModeRules.plan(
                        overOds,
                        FLINK_DEFAULTS,
                        UPSERTS.withVolatileFunctions(List.of("CURRENT_DATE")),
                        Instant.EPOCH);
        RefreshPlan continuous = plan(table(RefreshMode.CONTINUOUS, 1, "MINUTE", Map.of()));

        assertThat(kafka.incremental().level()).isEqualTo(RefreshPlan.Incremental.Level.NONE);
        assertThat(kafka.incremental().reason())
                .contains("default_catalog.shop.s is a source table");
        assertThat(clock.incremental().level()).isEqualTo(RefreshPlan.Incremental.Level.NONE);
        assertThat(clock.incremental().reason()).contains("calls CURRENT_DATE");
        assertThat(continuous.incremental()).isNull();
    }

    @Test
    void aFullTableFedPartitionByPartitionRefreshesOnlyChangedPartitions() {
        TableDefinition overOds =
                withSources(
                        table(RefreshMode.FULL, 1, "HOUR", Map.of()),
                        TableDefinition.Kind.MATERIALIZED_TABLE);
        var fed =
                UPSERTS.withBatch(QueryAnalysis.BatchCheck.RUNS)
                        .withPartitionSources(
                                Map.of("default_catalog.shop.s", Map.of("ds", "day")));

        RefreshPlan plan = RefreshModeRules.plan(overOds, FLINK_DEFAULTS, fed, Instant.EPOCH);

        assertThat(plan.incremental().level())
                .isEqualTo(RefreshPlan.Incremental.Level.CHANGED_PARTITIONS);
        assertThat(plan.incremental().partitionsFrom())
                .isEqualTo(Map.of("default_catalog.shop.s", Map.of("ds", "day")));
        assertThat(plan.incremental().reason())
                .contains("partition by partition from default_catalog.shop.s (ds = day)");
    }

    private static TableDefinition withSources(TableDefinition t, TableDefinition.Kind kind) {
        var source =
                new TableDefinition.SourceTable(
                        "default_catalog.shop.s",
                        kind,
                        1,
                        "CREATE TABLE s ...",
                        List.of(new TableDefinition.Column("ds", "STRING", false)),
                        List.of());
        return TableDefinitionBuilder.builder(t)
                .sources(List.of(source))
                .requestId(null)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private static TableDefinition withColumns(
            TableDefinition t, TableDefinition.Column... columns) {
        return TableDefinitionBuilder.builder(t)
                .columns(List.of(columns))
                .partitionKeys(List.of())
                .requestId(null)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private static TableDefinition withPrimaryKey(TableDefinition t, String... key) {
        return TableDefinitionBuilder.builder(t)
                .primaryKey(List.of(key))
                .requestId(null)
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    private static RefreshPlan plan(TableDefinition table) {
        return RefreshModeRules.plan(table, FLINK_DEFAULTS, UPSERTS, Instant.EPOCH);
    }

    private static TableDefinition table(
            RefreshMode mode, Integer interval, String unit, Map<String, String> options) {
        return TableDefinitionBuilder.builder()
                .table("default_catalog.shop.t")
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("CREATE MATERIALIZED TABLE ...")
                .columns(List.of(new TableDefinition.Column("ds", "STRING", false)))
                .primaryKey(List.of())
                .partitionKeys(List.of("ds"))
                .distribution(null)
                .options(options)
                .comment(null)
                .freshness(interval == null ? null : new TableDefinition.Freshness(interval, unit))
                .refreshMode(mode)
                .query(new TableDefinition.Query("SELECT ds FROM s", "SELECT ds FROM s"))
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }
}
