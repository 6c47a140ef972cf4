package io.mtables.ddl.domain;

import io.mtables.schemas.capture.CaptureSnapshot;
import io.mtables.schemas.catalog.TableDefinition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * How far cdc-capture-service's snapshot of each captured table is, as its last {@code
 * CaptureSnapshot} on {@code mt.capture.status} said: a table whose sources are being snapshotted
 * cannot read their rows until the whole snapshot commits, so its initial load waits on it. A
 * report older than the one held is ignored, and so is a snapshot the capture stopped reporting on
 * for {@link #SILENT_AFTER} (a capture stopped in it starts it again, reporting every table anew; a
 * table no longer captured is never reported done).
 */
public class CaptureSnapshotProjection {

    /** A snapshot under way reports every 5 s: one silent this long is not under way. */
    static final Duration SILENT_AFTER = Duration.ofMinutes(2);

    private final Clock clock;

    public CaptureSnapshotProjection() {
        this(Clock.systemUTC());
    }

    CaptureSnapshotProjection(Clock clock) {
        this.clock = clock;
    }

    private final Map<String, CaptureSnapshot> byTopic = new ConcurrentHashMap<>();

    public void apply(CaptureSnapshot report) {
        byTopic.merge(
                report.topic(),
                report,
                (held, arrived) ->
                        arrived.reportedAt().isBefore(held.reportedAt()) ? held : arrived);
    }

    /**
     * The snapshot under way that holds back the rows of {@code topics}: every table of it, since
     * the capture commits them together; empty when none of the topics waits on one.
     */
    public Optional<SnapshotEstimate> underWay(Collection<String> topics) {
        Instant silentSince = clock.instant().minus(SILENT_AFTER);
        // One copy: the consumer's thread may replace reports meanwhile.
        List<CaptureSnapshot> reports =
                byTopic.values().stream()
                        .filter(r -> !r.done() && r.reportedAt().isAfter(silentSince))
                        .toList();
        Optional<Instant> started = // the oldest, when the topics wait on two
                reports.stream()
                        .filter(r -> topics.contains(r.topic()))
                        .map(CaptureSnapshot::startedAt)
                        .min(Comparator.naturalOrder());
        return started.map(
                at ->
                        SnapshotEstimate.of(
                                reports.stream().filter(r -> r.startedAt().equals(at)).toList(),
                                topics));
    }

    /**
     * The change topics the table's sources read: those of its Kafka source tables ({@code topic},
     * one or several separated by ';'), by {@code sources}' definitions.
     */
    public static List<String> sourceTopics(
            TableDefinition table, Function<String, Optional<TableDefinition>> sources) {
        List<String> topics = new ArrayList<>();
        for (var source : table.sources()) {
            if (source.kind() != TableDefinition.Kind.SOURCE_TABLE) {
                continue; // a materialized table's own sources are its own to wait on
            }
            String topic =
                    sources.apply(source.table())
                            .map(TableDefinition::options)
                            .map(options -> options.get("topic"))
                            .orElse(null);
            if (topic != null) {
                topics.addAll(List.of(topic.split(";")));
            }
        }
        return topics;
    }
}
