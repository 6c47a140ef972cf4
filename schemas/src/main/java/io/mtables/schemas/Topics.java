package io.mtables.schemas;

import java.util.List;

/**
 * The Kafka topics of the system: their names are public contracts (docs/topics.md).
 *
 * <p>Every record on a table topic is keyed by the table identifier, so each table's history is
 * ordered within one partition.
 */
public final class Topics {

    /** DDL statements submitted through Kafka (GitOps, CI pipelines); consumed by ddl-service. */
    public static final String DDL_COMMANDS = "mt.ddl.commands";

    /**
     * One result per DDL statement, keyed by its request id (compacted: it is also the record of
     * which request ids were applied); produced by ddl-service.
     */
    public static final String DDL_RESULTS = "mt.ddl.results";

    /** Versioned table definitions (compacted); produced by ddl-service. */
    public static final String TABLE_DEFINITIONS = "mt.table.definitions";

    /** Refresh plans, one per definition version (compacted); produced by planner-service. */
    public static final String REFRESH_PLANS = "mt.refresh.plans";

    /** Refresh ticks of FULL tables; produced by refresh-scheduler-service. */
    public static final String REFRESH_TICKS = "mt.refresh.ticks";

    /** Suspend, resume, manual refresh and drop commands; produced by ddl-service. */
    public static final String LIFECYCLE_COMMANDS = "mt.lifecycle.commands";

    /** Job and refresh events; produced by job-manager-service, consumed by anyone downstream. */
    public static final String REFRESH_EVENTS = "mt.refresh.events";

    /** Records a service could not read, with the reason in headers; for operators to inspect. */
    public static final String DEAD_LETTERS = "mt.dead-letters";

    /**
     * The last tick fired for each FULL table (compacted, keyed by table, {@code RefreshTick.v1}):
     * written in the same Kafka transaction as the tick, so a scheduler that takes a table over
     * knows exactly where its predecessor stopped.
     */
    public static final String SCHEDULER_LAST_TICKS = "mt.scheduler.last-ticks";

    /**
     * Who may do what: roles, their members and grants ({@code AccessChanged.v1}, each under a
     * random key, compacted: no key repeats, so every change is kept). One partition: the changes
     * are replayed in the one order they were made (a REVOKE after its GRANT). Produced and read by
     * ddl-service alone.
     */
    public static final String DDL_ACCESS = "mt.ddl.access";

    /**
     * The audit trail: every statement ddl-service answered, its sender and outcome ({@code
     * StatementAudited.v1}, keyed by request id). Append-only: records are deleted by retention
     * alone (the broker's, which operators set as their audit policy asks), never compacted.
     * Produced by ddl-service; read by ddl-service (copied into {@code mt_system.audit}, which
     * {@code information_schema.audit} reads) and auditors.
     */
    public static final String DDL_AUDIT = "mt.ddl.audit";

    /**
     * The Flink cluster as the active job manager last saw it ({@code ClusterStatus.v1}, keyed
     * {@code cluster}, compacted: the latest is what counts). One partition. Produced by
     * job-manager-service when it changes; read by ddl-service (the console's cluster page).
     */
    public static final String CLUSTER_STATUS = "mt.cluster.status";

    /**
     * How far cdc-capture-service's snapshot of each captured table is ({@code CaptureSnapshot.v1},
     * keyed by the table's change topic, compacted: the latest is what counts). One partition.
     * Produced by cdc-capture-service while a snapshot runs; read by ddl-service (a table's initial
     * load before its sources' rows can be read).
     */
    public static final String CAPTURE_STATUS = "mt.capture.status";

    /** Every topic with its retention policy, so that any service can create what is missing. */
    public static final List<TopicSpec> ALL =
            List.of(
                    new TopicSpec(DDL_COMMANDS, TopicSpec.Retention.DELETE),
                    new TopicSpec(DDL_RESULTS, TopicSpec.Retention.COMPACT),
                    new TopicSpec(TABLE_DEFINITIONS, TopicSpec.Retention.COMPACT),
                    new TopicSpec(REFRESH_PLANS, TopicSpec.Retention.COMPACT),
                    new TopicSpec(REFRESH_TICKS, TopicSpec.Retention.DELETE),
                    new TopicSpec(LIFECYCLE_COMMANDS, TopicSpec.Retention.DELETE),
                    new TopicSpec(REFRESH_EVENTS, TopicSpec.Retention.DELETE),
                    new TopicSpec(DEAD_LETTERS, TopicSpec.Retention.DELETE),
                    new TopicSpec(SCHEDULER_LAST_TICKS, TopicSpec.Retention.COMPACT),
                    new TopicSpec(DDL_ACCESS, TopicSpec.Retention.COMPACT, 1),
                    new TopicSpec(DDL_AUDIT, TopicSpec.Retention.DELETE),
                    new TopicSpec(CLUSTER_STATUS, TopicSpec.Retention.COMPACT, 1),
                    new TopicSpec(CAPTURE_STATUS, TopicSpec.Retention.COMPACT, 1));

    private Topics() {}

    /** Whether {@code name} is one of the topics above. */
    public static boolean isKnown(String name) {
        return ALL.stream().anyMatch(spec -> spec.name().equals(name));
    }
}
