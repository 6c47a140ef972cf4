package io.mtables.ddl.statements;

import io.mtables.planning.StateCompatibility;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.QueryChange;
import io.mtables.schemas.catalog.TableDefinition.Verdict;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
        return Optional.of(
                new QueryChange(
                        from,
                        Verdict.valueOf(verdict.verdict().name()),
                        verdict.reason(),
                        verdict.verdict() == StateCompatibility.Verdict.COMPATIBLE
                                ? SWITCH_OVER
                                        + " (the state is not restored, though Flink could: a"
                                        + " restored job would leave rows already written with the"
                                        + " old query's values)"
                                : SWITCH_OVER));
    }

    /** EXPLAIN's rows for a change the statement would make. */
    static void appendEvolution(List<List<Object>> rows, QueryChange change) {
        rows.add(Arrays.asList("evolution.verdict", change.verdict().name()));
        rows.add(Arrays.asList("evolution.reason", change.reason()));
        rows.add(Arrays.asList("evolution.action", change.action()));
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
