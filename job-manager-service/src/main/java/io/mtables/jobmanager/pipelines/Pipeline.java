package io.mtables.jobmanager.pipelines;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.tick.RefreshTick;
import java.time.Instant;
import java.util.Map;

/** What the job manager knows and runs for one materialized table. Touched by the control thread only. */
final class Pipeline {

  /** The table's state as DESCRIBE shows it. */
  enum Status {
    INITIALIZING,
    ACTIVATED,
    SUSPENDED,
    FAILED
  }

  /** A FULL refresh in flight, or waiting for the one in flight. */
  record Refresh(String id, Map<String, String> partition, Instant dataTimestamp, RefreshTick.Reason reason) {}

  final String table;
  TableDefinition definition;
  RefreshPlan plan;
  long appliedPlanVersion;
  Status status = Status.INITIALIZING;

  /** The streaming job, the definition version it runs and the fingerprint of its query. */
  String streamingJobId;
  long streamingJobVersion;
  String streamingJobQuery;

  String refreshJobId;
  Refresh refreshRunning;
  Instant refreshStartedAt;
  Refresh refreshWaiting;
  int coalescedRefreshes;

  int consecutiveFailures;
  long lastSnapshotId;
  Instant lastSnapshotAt;

  Pipeline(String table) {
    this.table = table;
  }

  /**
   * Whether the plan can be acted on: the definition of exactly its version is known (a newer
   * definition waits for its own plan). A drop needs no definition.
   */
  boolean planReady() {
    return plan != null
        && (plan.status() == io.mtables.schemas.plan.RefreshPlan.Status.DROPPED || (definition != null && definition.version() == plan.definitionVersion()));
  }
}
