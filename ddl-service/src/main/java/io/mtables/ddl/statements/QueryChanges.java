package io.mtables.ddl.statements;

import io.mtables.planning.StateCompatibility;
import io.mtables.planning.WrittenRows;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.QueryChange;
import io.mtables.schemas.catalog.TableDefinition.Verdict;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a changed query does to a table's running streaming job: whether its state fits the new
 * query (seed 004's verdict, from Flink's compiled plans; NONE when there is no streaming state)
 * and what the job manager will do. Kept in the new version ({@link TableDefinition#queryChange}),
 * shown by EXPLAIN ({@code evolution.*}), DESCRIBE ({@code last_change.*}) and the ALTER's answer.
 */
final class QueryChanges {

    /**
     * What the job manager does on a new query of a CONTINUOUS table (QueryState's fingerprint
     * changes): a switch-over, docs/evolution.md.
     */
    static final String SWITCH_OVER =
            "the new query fills a staged table from its sources beside the running job, which"
                + " keeps serving the table; once it has caught up, readers switch to it at once"
                + " (it takes the table's name) and the old job stops: no empty or half-filled"
                + " table is ever read";

    /**
     * What the job manager does on a COMPATIBLE change whose written rows can be rewritten: the
     * state is restored, docs/evolution.md.
     */
    static final String RESTORE_IN_PLACE =
            "the running job stops with a savepoint; the rows it wrote are rewritten into the new"
                + " query's from their own columns (writtenRows), in one commit; the new query's"
                + " job goes on from the savepoint, its sources not read again. Should Flink not"
                + " map the state onto the new job, a switch-over follows, the table keeping the"
                + " rewritten rows meanwhile";

    /** What the job manager does on a new query of a FULL table. */
    static final String FULL_IN_PLACE =
            "the table keeps its rows (the columns the new query adds NULL) until its next refresh"
                    + " writes the new query's; readers never see it empty";

    private QueryChanges() {}

    /**
     * The change from {@code running} to {@code changed}, when it changes the query; {@code
     * runningPlan} is the plan the running version is kept fresh by, {@code changedPlan} the one
     * the change would get (null when the new version is suspended, so not planned).
     */
    static Optional<QueryChange> of(
            TableDefinition running,
            Optional<RefreshPlan> runningPlan,
            TableDefinition changed,
            RefreshPlan changedPlan,
            PlanPreview preview) {
        if (running.query().expanded().equals(changed.query().expanded())
                && Objects.equals(running.columns(), changed.columns())) {
            return Optional.empty();
        }
        long from = running.version();
        if (changedPlan == null) {
            return Optional.of(
                    new QueryChange(
                            from,
                            Verdict.NONE,
                            "the table is suspended: its job's state is in a savepoint of the old"
                                    + " query",
                            "at RESUME, "
                                    + SWITCH_OVER.replace(
                                            " beside the running job, which keeps serving the"
                                                    + " table",
                                            " while the table keeps the old query's rows")));
        }
        boolean continuousNow =
                runningPlan
                        .map(
                                plan ->
                                        plan.mode() == RefreshPlan.Mode.CONTINUOUS
                                                && plan.status() == RefreshPlan.Status.ACTIVE)
                        .orElse(false);
        if (!continuousNow) {
            String now =
                    runningPlan
                            .map(
                                    plan ->
                                            plan.status() == RefreshPlan.Status.ACTIVE
                                                    ? String.valueOf(plan.mode())
                                                    : String.valueOf(plan.status()))
                            .orElse("not planned yet");
            return Optional.of(
                    new QueryChange(
                            from,
                            Verdict.NONE,
                            "the table has no streaming job whose state could be kept (its plan: "
                                    + now
                                    + ")",
                            changedPlan.mode() == null
                                    ? "nothing runs: the new plan is " + changedPlan.status()
                                    : changedPlan.mode() == RefreshPlan.Mode.FULL
                                            ? FULL_IN_PLACE
                                            : SWITCH_OVER.replace(
                                                    " beside the running job, which keeps serving"
                                                            + " the table",
                                                    " while the table keeps the old query's"
                                                            + " rows")));
        }
        if (changedPlan.mode() != RefreshPlan.Mode.CONTINUOUS) {
            return Optional.of(
                    new QueryChange(
                            from,
                            Verdict.NONE,
                            "the new query is planned "
                                    + (changedPlan.mode() == null
                                            ? changedPlan.status()
                                            : changedPlan.mode())
                                    + ", which keeps no streaming state",
                            "the streaming job is cancelled and its state dropped"
                                    + (changedPlan.mode() == RefreshPlan.Mode.FULL
                                            ? "; " + FULL_IN_PLACE
                                            : "")));
        }
        StateCompatibility.Result verdict = preview.stateVerdict(running, changed);
        Verdict judged = Verdict.valueOf(verdict.verdict().name());
        if (judged != Verdict.COMPATIBLE) {
            return Optional.of(new QueryChange(from, judged, verdict.reason(), SWITCH_OVER));
        }
        WrittenRows.Rewrite rewrite = writtenRows(running, changed, changedPlan);
        return Optional.of(
                rewrite.query()
                        .map(
                                query ->
                                        new QueryChange(
                                                from,
                                                judged,
                                                verdict.reason(),
                                                RESTORE_IN_PLACE,
                                                query))
                        .orElseGet(
                                () ->
                                        new QueryChange(
                                                from,
                                                judged,
                                                verdict.reason(),
                                                SWITCH_OVER
                                                        + " (the state is not restored, though"
                                                        + " Flink could: the rows already written"
                                                        + " could not be brought to the new query"
                                                        + " from their own columns, because "
                                                        + rewrite.impossible().orElseThrow()
                                                        + ")")));
    }

    /**
     * The new query's rows for those the old one wrote, from their own columns: possible when every
     * row keeps its key and partition, and the job writes the query's rows as they are or keyed on
     * a NULL-safe encoding of its columns (not a UNION ALL's branches, not a held empty-input row).
     */
    private static WrittenRows.Rewrite writtenRows(
            TableDefinition running, TableDefinition changed, RefreshPlan changedPlan) {
        RefreshPlan.UpsertKey key = changedPlan.upsertKey();
        if (key != null && (key.branches() != null || key.emptyInputRow() != null)) {
            return WrittenRows.Rewrite.impossible(
                    "the job computes the table's key around the query (UNION ALL branches, or a"
                            + " row held while the input is empty)");
        }
        Set<String> carried = new LinkedHashSet<>(changed.partitionKeys());
        if (key != null) {
            carried.addAll(key.columns());
        }
        return WrittenRows.of(
                running.query().expanded(),
                running.columns().stream().map(TableDefinition.Column::name).toList(),
                changed.query().expanded(),
                changed.columns().stream().map(TableDefinition.Column::name).toList(),
                carried);
    }

    /** EXPLAIN's rows for a change the statement would make. */
    static void appendEvolution(List<List<Object>> rows, QueryChange change) {
        rows.add(Arrays.asList("evolution.verdict", change.verdict().name()));
        rows.add(Arrays.asList("evolution.reason", change.reason()));
        rows.add(Arrays.asList("evolution.action", change.action()));
        if (change.writtenRows() != null) {
            rows.add(Arrays.asList("evolution.written_rows", change.writtenRows()));
        }
        if (change.bridge() != null) {
            rows.add(Arrays.asList("evolution.bridge", bridgeWords(change.bridge())));
        }
    }

    /**
     * EXPLAIN's row on the tables that read a CONTINUOUS table whose query changes: its rows are
     * replaced at once (switched over, or rewritten by a restore), which a streaming reader cannot
     * go on from (docs/evolution.md).
     *
     * @param readers each reader and its current plan's mode (null when not planned yet)
     */
    static void appendReaders(List<List<Object>> rows, Map<String, RefreshPlan.Mode> readers) {
        if (readers.isEmpty()) {
            return;
        }
        List<String> each = new ArrayList<>();
        readers.forEach(
                (reader, mode) ->
                        each.add(
                                reader
                                        + (mode == RefreshPlan.Mode.CONTINUOUS
                                                ? " (CONTINUOUS): its job stops, and its own query"
                                                        + " is read anew from the new rows into a"
                                                        + " staged table, its rows serving until"
                                                        + " that has caught up"
                                                : mode == RefreshPlan.Mode.FULL
                                                        ? " (FULL): its next refresh reads the new"
                                                                + " rows, all of them"
                                                        : " (not planned yet)")));
        rows.add(Arrays.asList("evolution.readers", String.join("; ", each)));
    }

    /** Seed 004's bridge in words: why, and where the rows are cut. */
    static String bridgeWords(TableDefinition.HistoryBridge bridge) {
        return "the old query's rows up to the cut-over by "
                + bridge.column()
                + ", the new query's after it, because "
                + bridge.missingHistory();
    }

    /** One sentence for the ALTER's answer. */
    static String sentence(QueryChange change) {
        return "The running job's state: "
                + change.verdict()
                + " ("
                + change.reason()
                + "); "
                + change.action()
                + ".";
    }
}
