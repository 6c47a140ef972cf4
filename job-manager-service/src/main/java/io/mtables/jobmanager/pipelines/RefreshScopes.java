package io.mtables.jobmanager.pipelines;

import io.mtables.jobmanager.jobs.JobSql;
import io.mtables.jobmanager.jobs.PaimonPartitions;
import io.mtables.jobmanager.jobs.PaimonSnapshots;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan.Incremental;
import io.mtables.schemas.tick.RefreshTick;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jboss.logging.Logger;

/**
 * What a FULL refresh covers, from its inputs' Paimon snapshots and the plan's incremental level:
 * nothing (NO_DATA: the inputs are where the last success left them), the partitions whose inputs
 * changed (CHANGED_PARTITIONS), the refresh's own partition, or the whole table. Reads metadata
 * only; nothing is scanned.
 */
final class RefreshScopes {

    private static final Logger LOG = Logger.getLogger(RefreshScopes.class);

    /** What a refresh does. */
    sealed interface Decision permits NoData, Run {}

    /** The refresh runs no job: the table's snapshot already holds its answer. */
    record NoData(long tableSnapshotId, Map<String, Long> inputSnapshots) implements Decision {}

    /** The refresh runs this overwrite, reading the inputs at {@code pinned}. */
    record Run(String overwrite, Map<String, Long> pinned, Pipeline.RefreshScope scope)
            implements Decision {}

    private final PaimonSnapshots snapshots;
    private final PaimonPartitions partitions;
    private final ReplacedInputs replaced;

    RefreshScopes(PaimonSnapshots snapshots, PaimonPartitions partitions, ReplacedInputs replaced) {
        this.snapshots = snapshots;
        this.partitions = partitions;
        this.replaced = replaced;
    }

    Decision of(Pipeline pipeline, Pipeline.Refresh refresh) {
        TableDefinition definition = pipeline.definition;
        Map<String, Long> pinned = new TreeMap<>();
        Map<String, Long> inputs = readInputs(definition, pinned);
        Incremental incremental = pipeline.plan.incremental();
        Incremental.Level level =
                incremental == null || inputs == null
                        ? Incremental.Level.NONE
                        : incremental.level();
        // REFRESH PARTITION asks for that partition; every other refresh of a table whose
        // partitions are traced brings all of them up to date, so its inputs are the whole table's
        // baseline.
        boolean named =
                refresh.reason() == RefreshTick.Reason.MANUAL && !refresh.partition().isEmpty();
        boolean byChanges = level == Incremental.Level.CHANGED_PARTITIONS && !named;
        Map<String, String> baseline = byChanges ? Map.of() : refresh.partition();
        var table = snapshots.latest(pipeline.table);
        if (level != Incremental.Level.NONE
                && table.isPresent()
                && sameInputs(pipeline, baseline, inputs)) {
            return new NoData(table.get().id(), inputs);
        }
        if (byChanges && table.isEmpty()) {
            return new Run(
                    JobSql.overwriteAll(definition),
                    pinned,
                    new Pipeline.RefreshScope(inputs, null, baseline, 0));
        }
        if (byChanges) {
            Optional<List<Map<String, String>>> changed =
                    changedPartitions(pipeline, inputs, incremental.partitionsFrom());
            if (changed.isPresent() && changed.get().isEmpty()) {
                return new NoData(
                        table.get().id(),
                        inputs); // the inputs changed, none of this table's partitions did
            }
            if (changed.isPresent()) {
                return new Run(
                        JobSql.overwritePartitions(definition, changed.get()),
                        pinned,
                        new Pipeline.RefreshScope(
                                inputs, changed.get(), baseline, table.get().id()));
            }
            return new Run(
                    JobSql.overwriteAll(definition),
                    pinned,
                    new Pipeline.RefreshScope(inputs, null, baseline, table.get().id()));
        }
        String overwrite =
                refresh.partition().isEmpty()
                        ? JobSql.overwriteAll(definition)
                        : JobSql.overwritePartition(definition, refresh.partition());
        return new Run(
                overwrite,
                pinned,
                new Pipeline.RefreshScope(
                        inputs,
                        null,
                        refresh.partition(),
                        table.map(PaimonSnapshots.CommittedSnapshot::id).orElse(0L)));
    }

    /**
     * Where each materialized table the query reads stands: its data snapshot id, and in {@code
     * pinned} the latest id the job is to read. Null when the query reads none, or one without a
     * snapshot yet (nothing to compare); other sources (Kafka, a database) are read as they stand.
     */
    private Map<String, Long> readInputs(TableDefinition definition, Map<String, Long> pinned) {
        Map<String, Long> inputs = new TreeMap<>();
        for (var source : definition.sources()) {
            if (source.kind() != TableDefinition.Kind.MATERIALIZED_TABLE) {
                continue;
            }
            var input = snapshots.input(source.table());
            if (input.isEmpty()) {
                pinned.clear();
                return null;
            }
            pinned.put(source.table(), input.get().latest());
            inputs.put(source.table(), input.get().dataId());
        }
        return inputs.isEmpty() ? null : inputs;
    }

    private boolean sameInputs(
            Pipeline pipeline, Map<String, String> baseline, Map<String, Long> inputs) {
        Pipeline.InputsRead last = pipeline.lastInputs.get(baseline);
        return last != null
                && last.definitionVersion() == pipeline.definition.version()
                && last.dataSnapshots().equals(inputs)
                && inputs.keySet().stream()
                        .noneMatch(input -> replaced.replacedSince(input, last.readAt()));
    }

    /**
     * The table's partitions whose inputs changed since the whole table was last brought up to
     * date; empty (Optional) when that cannot be known: no such refresh at this version, an input
     * feeding every partition changed, a snapshot between expired, or a NULL partition value no
     * literal names.
     */
    private Optional<List<Map<String, String>>> changedPartitions(
            Pipeline pipeline,
            Map<String, Long> inputs,
            Map<String, Map<String, String>> partitionsFrom) {
        Pipeline.InputsRead last = pipeline.lastInputs.get(Map.of());
        if (last == null || last.definitionVersion() != pipeline.definition.version()) {
            return whole(
                    pipeline,
                    "no earlier refresh of the whole table at this version to compare with");
        }
        Set<Map<String, String>> changed = new LinkedHashSet<>();
        for (var input : inputs.entrySet()) {
            if (replaced.replacedSince(input.getKey(), last.readAt())) {
                return whole(
                        pipeline,
                        input.getKey()
                                + " had its rows replaced (a switch-over or a restore) since;"
                                + " its snapshots are not comparable across that");
            }
            Long before = last.dataSnapshots().get(input.getKey());
            if (input.getValue().equals(before)) {
                continue;
            }
            Map<String, String> mapping =
                    partitionsFrom == null ? null : partitionsFrom.get(input.getKey());
            if (mapping == null || before == null) {
                return whole(pipeline, input.getKey() + " changed, and it feeds every partition");
            }
            var written = partitions.written(input.getKey(), before, input.getValue());
            if (written.isEmpty()) {
                return whole(
                        pipeline,
                        "the snapshots of "
                                + input.getKey()
                                + " after "
                                + before
                                + " are no longer kept");
            }
            String nullName = partitions.nullPartitionName(input.getKey());
            for (Map<String, String> inputPartition : written.get()) {
                Map<String, String> own = new LinkedHashMap<>();
                for (var column : mapping.entrySet()) {
                    String value = inputPartition.get(column.getValue());
                    if (value == null || value.equals(nullName)) {
                        return whole(
                                pipeline,
                                input.getKey()
                                        + " changed its partition where "
                                        + column.getValue()
                                        + " is NULL");
                    }
                    own.put(column.getKey(), value);
                }
                changed.add(own);
            }
        }
        return Optional.of(new ArrayList<>(changed));
    }

    private static Optional<List<Map<String, String>>> whole(Pipeline pipeline, String why) {
        LOG.infof("refreshing the whole of %s: %s", pipeline.table, why);
        return Optional.empty();
    }
}
