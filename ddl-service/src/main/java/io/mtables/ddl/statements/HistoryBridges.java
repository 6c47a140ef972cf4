package io.mtables.ddl.statements;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a switch-over can bridge sources that lost their oldest changes (seed 004's bridge): the
 * new query cannot give the rows of those changes, so the table keeps the old query's rows up to a
 * cut-over and takes the new query's after it. That split is sound only where rows belong to
 * windows that close once: a column that is a window aggregate's end in both queries ({@code
 * WindowEnds}), in the table's key if it has one, which the job manager cuts at the newest window
 * the old job closed.
 */
final class HistoryBridges {

    /** What the switch-over does with the bridge, appended to the change's action. */
    static final String ACTION =
            "; the sources no longer hold every change, so seed 004's bridge: the table keeps the"
                    + " old query's rows of the windows that ended by the cut-over (the newest %s"
                    + " the old job wrote before it stopped) and takes the new query's rows of"
                    + " the windows after it";

    private HistoryBridges() {}

    /**
     * The bridge for {@code changed}'s switch-over from {@code running}, or why there can be none.
     *
     * @param changedPlan the plan the new version would get
     * @param missingHistory what the sources no longer hold, in words
     */
    static Result of(
            TableDefinition running,
            TableDefinition changed,
            RefreshPlan changedPlan,
            PlanPreview preview,
            String missingHistory) {
        RefreshPlan.UpsertKey key = changedPlan.upsertKey();
        if (key != null && (key.branches() != null || key.columns().isEmpty())) {
            return Result.none(
                    "the job computes the table's key around the query (UNION ALL branches, or a"
                            + " single row), which the window it belongs to does not split");
        }
        Set<String> newEnds = preview.windowEnds(changed);
        Set<String> oldEnds = preview.windowEnds(running);
        // Keyed rows must hold the window end in their key, so that no key is on both sides of
        // the cut; rows without a key (a window aggregate's insert-only rows) are written once.
        Optional<String> column =
                changed.columns().stream()
                        .map(TableDefinition.Column::name)
                        .filter(newEnds::contains)
                        .filter(oldEnds::contains)
                        .filter(c -> key == null || key.columns().contains(c))
                        .filter(c -> sameType(running, changed, c))
                        .findFirst();
        return column.map(c -> new Result(Optional.of(new HistoryBridge(c, missingHistory)), ""))
                .orElseGet(
                        () ->
                                Result.none(
                                        "seed 004's bridge cuts rows by the window they belong"
                                                + " to, and no column"
                                                + (key == null
                                                        ? ""
                                                        : " of the key ("
                                                                + String.join(", ", key.columns())
                                                                + ")")
                                                + " is a window aggregate's end in both the old"
                                                + " and the new query"));
    }

    private static boolean sameType(TableDefinition a, TableDefinition b, String column) {
        return Objects.equals(type(a, column), type(b, column));
    }

    private static Optional<String> type(TableDefinition table, String column) {
        return table.columns().stream()
                .filter(c -> c.name().equals(column))
                .map(TableDefinition.Column::type)
                .findFirst();
    }

    /**
     * @param bridge the bridge, when there can be one
     * @param whyNot why there cannot, in words; empty when there can
     */
    record Result(Optional<HistoryBridge> bridge, String whyNot) {
        static Result none(String whyNot) {
            return new Result(Optional.empty(), whyNot);
        }
    }
}
