package io.mtables.schemas;

import java.util.List;

/**
 * Who may do what on the broker: each service's Kafka principal, the topics it writes and reads,
 * and the consumer groups and transactional ids it uses (docs/security.md, "Kafka"). A broker's
 * ACLs are made from this list alone: the distributed test's broker, and the KafkaUsers of k8s/
 * (checked against it by the deploy module's tests).
 *
 * <p>Writing a topic implies describing it; reading it implies describing it. Topics are not
 * created by the services on a secured broker ({@code mt.kafka.create-topics=false}): the operator
 * creates them, except those the capture creates for each captured table.
 */
public final class KafkaPrincipals {

    /**
     * One principal's rights.
     *
     * @param name the principal's user name ({@code User:<name>} to the broker)
     * @param writes topics it produces to
     * @param reads topics it consumes
     * @param groupPrefix the prefix of every consumer group it joins
     * @param transactionalIdPrefix the prefix of its producers' transactional ids, or null
     * @param owned topics it creates (when missing), writes and reads, and whose settings it checks
     *     (the capture's offsets: Kafka Connect's offset store checks that the topic is compacted)
     * @param ownedPrefix topics under this prefix it owns the same way (the capture's change
     *     topics), or null
     * @param readPrefix topics under this prefix it reads (and describes), or null
     */
    public record Principal(
            String name,
            List<String> writes,
            List<String> reads,
            String groupPrefix,
            String transactionalIdPrefix,
            List<String> owned,
            String ownedPrefix,
            String readPrefix) {}

    /** The capture's change topics, {@code <prefix>.<schema>.<table>} (docs/cdc.md). */
    public static final String CHANGE_TOPIC_PREFIX = "cdc.";

    /** The capture's Debezium offsets (compacted; written in the changes' transactions). */
    public static final String CDC_OFFSETS = "mt.cdc.offsets";

    /**
     * ddl-service. Besides its own topics it writes commands (a standby instance forwards a REST
     * statement to the active one as a command) and refresh events (the freshness alerts it
     * raises).
     */
    public static final Principal DDL_SERVICE =
            new Principal(
                    "ddl-service",
                    List.of(
                            Topics.DDL_COMMANDS,
                            Topics.REFRESH_EVENTS,
                            Topics.DDL_RESULTS,
                            Topics.TABLE_DEFINITIONS,
                            Topics.LIFECYCLE_COMMANDS,
                            Topics.DDL_ACCESS,
                            Topics.DDL_AUDIT,
                            Topics.DEAD_LETTERS),
                    List.of(
                            Topics.DDL_COMMANDS,
                            Topics.DDL_RESULTS,
                            Topics.TABLE_DEFINITIONS,
                            Topics.DDL_ACCESS,
                            Topics.DDL_AUDIT,
                            Topics.REFRESH_PLANS,
                            Topics.REFRESH_EVENTS,
                            Topics.CLUSTER_STATUS,
                            Topics.CAPTURE_STATUS),
                    "ddl-service",
                    null,
                    List.of(),
                    null,
                    // a new query's sources: whether retention deleted records it would need
                    CHANGE_TOPIC_PREFIX);

    public static final Principal PLANNER_SERVICE =
            new Principal(
                    "planner-service",
                    List.of(Topics.REFRESH_PLANS, Topics.DEAD_LETTERS),
                    List.of(Topics.TABLE_DEFINITIONS, Topics.REFRESH_PLANS),
                    "planner-service",
                    null,
                    List.of(),
                    null,
                    null);

    public static final Principal REFRESH_SCHEDULER_SERVICE =
            new Principal(
                    "refresh-scheduler-service",
                    List.of(Topics.REFRESH_TICKS, Topics.SCHEDULER_LAST_TICKS, Topics.DEAD_LETTERS),
                    List.of(
                            Topics.REFRESH_PLANS,
                            Topics.LIFECYCLE_COMMANDS,
                            Topics.SCHEDULER_LAST_TICKS,
                            Topics.REFRESH_EVENTS),
                    "refresh-scheduler-service",
                    "refresh-scheduler-service",
                    List.of(),
                    null,
                    null);

    /**
     * The job manager, and the Flink jobs it submits: they read the change topics with its rights.
     */
    public static final Principal JOB_MANAGER_SERVICE =
            new Principal(
                    "job-manager-service",
                    List.of(Topics.REFRESH_EVENTS, Topics.CLUSTER_STATUS, Topics.DEAD_LETTERS),
                    List.of(
                            Topics.TABLE_DEFINITIONS,
                            Topics.REFRESH_PLANS,
                            Topics.REFRESH_TICKS,
                            Topics.REFRESH_EVENTS),
                    "job-manager-service",
                    null,
                    List.of(),
                    null,
                    CHANGE_TOPIC_PREFIX);

    public static final Principal CDC_CAPTURE_SERVICE =
            new Principal(
                    "cdc-capture-service",
                    List.of(Topics.CAPTURE_STATUS, Topics.DEAD_LETTERS),
                    List.of(),
                    "cdc-capture-service",
                    "mt-cdc-capture",
                    List.of(CDC_OFFSETS),
                    CHANGE_TOPIC_PREFIX,
                    null);

    /**
     * A user's or a CI pipeline's client: sends statements as commands and reads their results and
     * the refresh events; its commands still carry a token ddl-service checks (a principal may act
     * for several users).
     */
    public static final Principal CLIENT =
            new Principal(
                    "mt-client",
                    List.of(Topics.DDL_COMMANDS),
                    List.of(Topics.DDL_RESULTS, Topics.REFRESH_EVENTS),
                    "mt-client",
                    null,
                    List.of(),
                    null,
                    null);

    /**
     * The topics more than one principal writes, each for a reason of its own (the others have one
     * writer): dead letters (every service), commands (clients, and a standby ddl-service
     * forwarding), refresh events (the job manager, and ddl-service's freshness alerts).
     */
    public static final List<String> SHARED_TOPICS =
            List.of(Topics.DEAD_LETTERS, Topics.DDL_COMMANDS, Topics.REFRESH_EVENTS);

    /** Every principal of the system, services first. */
    public static final List<Principal> ALL =
            List.of(
                    DDL_SERVICE,
                    PLANNER_SERVICE,
                    REFRESH_SCHEDULER_SERVICE,
                    JOB_MANAGER_SERVICE,
                    CDC_CAPTURE_SERVICE,
                    CLIENT);

    private KafkaPrincipals() {}
}
