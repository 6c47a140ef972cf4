package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan.Incremental;
import io.mtables.schemas.plan.RefreshPlan.Incremental.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a FULL refresh may leave out. A refresh is a function of its inputs' contents: when every
 * input is a Paimon table (another materialized table) and none has a new snapshot since the last
 * successful refresh of the same partition, the refresh would write what is already there, so it
 * runs no job (NO_DATA). A Kafka or database source has no snapshot to compare, and a query that
 * reads the clock or draws random values answers differently over the same rows: those always run.
 * When Flink proves the table's partitions come partition by partition from some inputs ({@link
 * PartitionLocality}), a refresh overwrites only the partitions whose inputs changed.
 */
final class IncrementalRefresh {

    private IncrementalRefresh() {}

    static Incremental of(TableDefinition table, QueryAnalysis query) {
        List<String> notSnapshotted =
                table.sources().stream()
                        .filter(s -> s.kind() != TableDefinition.Kind.MATERIALIZED_TABLE)
                        .map(TableDefinition.SourceTable::table)
                        .toList();
        if (!notSnapshotted.isEmpty()) {
            return new Incremental(
                    Level.NONE,
                    "Every refresh runs: "
                            + String.join(", ", notSnapshotted)
                            + (notSnapshotted.size() == 1
                                    ? " is a source table"
                                    : " are source tables")
                            + " (Kafka or a database), with no snapshots to tell whether it"
                            + " changed. Read it through a CONTINUOUS table to skip refreshes of"
                            + " unchanged data.");
        }
        if (!query.volatileFunctions().isEmpty()) {
            return new Incremental(
                    Level.NONE,
                    "Every refresh runs: the query calls "
                            + String.join(", ", query.volatileFunctions())
                            + ", whose value changes"
                            + " while its inputs do not.");
        }
        if (!query.partitionSources().isEmpty()) {
            List<String> fed = new ArrayList<>();
            query.partitionSources()
                    .forEach((input, columns) -> fed.add(input + " (" + describe(columns) + ")"));
            List<String> others =
                    RefreshModeRules.upstreamTables(table).stream()
                            .filter(t -> !query.partitionSources().containsKey(t))
                            .toList();
            return new Incremental(
                    Level.CHANGED_PARTITIONS,
                    "A scheduled refresh overwrites only the partitions whose inputs changed since"
                        + " the last successful refresh (read from the inputs' Paimon snapshots):"
                        + " the table's partitions come partition by partition from "
                            + String.join(", ", fed)
                            + ", as Flink's optimizer pushes a filter on the table's partition"
                            + " columns down to every read of "
                            + (fed.size() == 1 ? "it" : "them")
                            + "."
                            + (others.isEmpty()
                                    ? ""
                                    : " A change to "
                                            + String.join(", ", others)
                                            + " refreshes the whole table.")
                            + " A refresh whose inputs did not change runs no job (NO_DATA).",
                    query.partitionSources());
        }
        String untraced =
                table.partitionKeys().isEmpty()
                        ? ""
                        : " Every refresh overwrites what it names: Flink's optimizer cannot trace"
                                + " the table's partitions to an input's (only a filter on them"
                                + " pushed down to every read of an input proves it).";
        return new Incremental(
                Level.UNCHANGED_INPUTS,
                "A refresh whose inputs ("
                        + String.join(", ", RefreshModeRules.upstreamTables(table))
                        + ") have no new Paimon snapshot since the last successful refresh of the"
                        + " same partition runs no job and reports NO_DATA."
                        + untraced);
    }

    private static String describe(Map<String, String> columns) {
        List<String> pairs = new ArrayList<>();
        columns.forEach((own, input) -> pairs.add(own.equals(input) ? own : own + " = " + input));
        return String.join(", ", pairs);
    }
}
