package io.mtables.schemas;

import io.mtables.schemas.access.AccessChanged;
import io.mtables.schemas.capture.CaptureSnapshot;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.cluster.ClusterStatus;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.StatementAudited;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.schemas.lifecycle.RefreshRequested;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.FreshnessMissed;
import io.mtables.schemas.refresh.FreshnessRestored;
import io.mtables.schemas.refresh.JobQueued;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.LoadProgress;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshProgress;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.StateRestored;
import io.mtables.schemas.refresh.Suspended;
import io.mtables.schemas.refresh.SwitchStarted;
import io.mtables.schemas.refresh.SwitchedOver;
import io.mtables.schemas.tick.RefreshTick;
import java.util.List;
import java.util.Optional;

/** Every contract of the system, by event type. */
public final class Contracts {

    /** A statement submitted on {@link Topics#DDL_COMMANDS}. */
    public static final Contract<DdlCommand> DDL_COMMAND_V1 =
            new Contract<>("DdlCommand", 1, DdlCommand.class);

    /** The outcome of one statement, on {@link Topics#DDL_RESULTS}. */
    public static final Contract<StatementResult> STATEMENT_RESULT_V1 =
            new Contract<>("StatementResult", 1, StatementResult.class);

    /** One answered statement, its sender and outcome, on {@link Topics#DDL_AUDIT}. */
    public static final Contract<StatementAudited> STATEMENT_AUDITED_V1 =
            new Contract<>("StatementAudited", 1, StatementAudited.class);

    /** A version of a table, on {@link Topics#TABLE_DEFINITIONS}. */
    public static final Contract<TableDefinition> TABLE_DEFINED_V1 =
            new Contract<>("TableDefined", 1, TableDefinition.class);

    /** A dropped table, on {@link Topics#TABLE_DEFINITIONS}. */
    public static final Contract<TableDropped> TABLE_DROPPED_V1 =
            new Contract<>("TableDropped", 1, TableDropped.class);

    /** A change of roles or grants, on {@link Topics#DDL_ACCESS}. */
    public static final Contract<AccessChanged> ACCESS_CHANGED_V1 =
            new Contract<>("AccessChanged", 1, AccessChanged.class);

    /** A manual refresh, on {@link Topics#LIFECYCLE_COMMANDS}. */
    public static final Contract<RefreshRequested> REFRESH_REQUESTED_V1 =
            new Contract<>("RefreshRequested", 1, RefreshRequested.class);

    /** A table's refresh plan, on {@link Topics#REFRESH_PLANS}. */
    public static final Contract<RefreshPlan> REFRESH_PLANNED_V1 =
            new Contract<>("RefreshPlanned", 1, RefreshPlan.class);

    /** A table's Flink job started, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<JobStarted> JOB_STARTED_V1 =
            new Contract<>("JobStarted", 1, JobStarted.class);

    /** A table's streaming job waits for free task slots, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<JobQueued> JOB_QUEUED_V1 =
            new Contract<>("JobQueued", 1, JobQueued.class);

    /**
     * How far a streaming job is through its sources while it catches up, on {@link
     * Topics#REFRESH_EVENTS}.
     */
    public static final Contract<LoadProgress> LOAD_PROGRESS_V1 =
            new Contract<>("LoadProgress", 1, LoadProgress.class);

    /** How far a FULL table's running refresh is, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<RefreshProgress> REFRESH_PROGRESS_V1 =
            new Contract<>("RefreshProgress", 1, RefreshProgress.class);

    /** New data is readable in a table, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<RefreshSucceeded> REFRESH_SUCCEEDED_V1 =
            new Contract<>("RefreshSucceeded", 1, RefreshSucceeded.class);

    /** A refresh or job failed, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<RefreshFailed> REFRESH_FAILED_V1 =
            new Contract<>("RefreshFailed", 1, RefreshFailed.class);

    /** A table's pipeline stopped, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<Suspended> SUSPENDED_V1 =
            new Contract<>("Suspended", 1, Suspended.class);

    /** A suspended table runs again, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<Resumed> RESUMED_V1 = new Contract<>("Resumed", 1, Resumed.class);

    /** A dropped table's pipeline and data are gone, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<Dropped> DROPPED_V1 = new Contract<>("Dropped", 1, Dropped.class);

    /**
     * A table has been behind its freshness longer than the alert grace, on {@link
     * Topics#REFRESH_EVENTS}.
     */
    public static final Contract<FreshnessMissed> FRESHNESS_MISSED_V1 =
            new Contract<>("FreshnessMissed", 1, FreshnessMissed.class);

    /** A table that missed its freshness is within it again, on {@link Topics#REFRESH_EVENTS}. */
    public static final Contract<FreshnessRestored> FRESHNESS_RESTORED_V1 =
            new Contract<>("FreshnessRestored", 1, FreshnessRestored.class);

    /**
     * A new query fills a staged table beside a CONTINUOUS table's own, on {@link
     * Topics#REFRESH_EVENTS}.
     */
    public static final Contract<SwitchStarted> SWITCH_STARTED_V1 =
            new Contract<>("SwitchStarted", 1, SwitchStarted.class);

    /**
     * Readers of a CONTINUOUS table read its new query's rows, on {@link Topics#REFRESH_EVENTS}.
     */
    public static final Contract<SwitchedOver> SWITCHED_OVER_V1 =
            new Contract<>("SwitchedOver", 1, SwitchedOver.class);

    /**
     * A CONTINUOUS table's new query goes on from the old query's state, on {@link
     * Topics#REFRESH_EVENTS}.
     */
    public static final Contract<StateRestored> STATE_RESTORED_V1 =
            new Contract<>("StateRestored", 1, StateRestored.class);

    /**
     * The Flink cluster's slots, queued tables and jobs as the job manager last saw them, on {@link
     * Topics#CLUSTER_STATUS}.
     */
    public static final Contract<ClusterStatus> CLUSTER_STATUS_V1 =
            new Contract<>("ClusterStatus", 1, ClusterStatus.class);

    /**
     * How far the capture's snapshot of one PostgreSQL table is, on {@link Topics#CAPTURE_STATUS}.
     */
    public static final Contract<CaptureSnapshot> CAPTURE_SNAPSHOT_V1 =
            new Contract<>("CaptureSnapshot", 1, CaptureSnapshot.class);

    /** Time for one FULL refresh, on {@link Topics#REFRESH_TICKS}. */
    public static final Contract<RefreshTick> REFRESH_TICK_V1 =
            new Contract<>("RefreshTick", 1, RefreshTick.class);

    /** Everything on {@link Topics#REFRESH_EVENTS}. */
    public static final List<Contract<?>> REFRESH_EVENTS =
            List.of(
                    JOB_QUEUED_V1,
                    JOB_STARTED_V1,
                    LOAD_PROGRESS_V1,
                    REFRESH_PROGRESS_V1,
                    REFRESH_SUCCEEDED_V1,
                    REFRESH_FAILED_V1,
                    SUSPENDED_V1,
                    RESUMED_V1,
                    DROPPED_V1,
                    FRESHNESS_MISSED_V1,
                    FRESHNESS_RESTORED_V1,
                    SWITCH_STARTED_V1,
                    SWITCHED_OVER_V1,
                    STATE_RESTORED_V1);

    public static final List<Contract<?>> ALL =
            List.of(
                    DDL_COMMAND_V1,
                    STATEMENT_RESULT_V1,
                    STATEMENT_AUDITED_V1,
                    TABLE_DEFINED_V1,
                    TABLE_DROPPED_V1,
                    ACCESS_CHANGED_V1,
                    REFRESH_REQUESTED_V1,
                    REFRESH_PLANNED_V1,
                    JOB_QUEUED_V1,
                    JOB_STARTED_V1,
                    LOAD_PROGRESS_V1,
                    REFRESH_PROGRESS_V1,
                    REFRESH_SUCCEEDED_V1,
                    REFRESH_FAILED_V1,
                    SUSPENDED_V1,
                    RESUMED_V1,
                    DROPPED_V1,
                    FRESHNESS_MISSED_V1,
                    FRESHNESS_RESTORED_V1,
                    SWITCH_STARTED_V1,
                    SWITCHED_OVER_V1,
                    STATE_RESTORED_V1,
                    CLUSTER_STATUS_V1,
                    CAPTURE_SNAPSHOT_V1,
                    REFRESH_TICK_V1);

    private Contracts() {}

    /** The contract whose CloudEvents type is {@code type}, if we define one. */
    public static Optional<Contract<?>> byType(String type) {
        return ALL.stream().filter(contract -> contract.type().equals(type)).findFirst();
    }
}
