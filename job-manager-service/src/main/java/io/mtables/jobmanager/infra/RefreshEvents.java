package io.mtables.jobmanager.infra;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.refresh.Dropped;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.schemas.refresh.RefreshFailed;
import io.mtables.schemas.refresh.RefreshSucceeded;
import io.mtables.schemas.refresh.Resumed;
import io.mtables.schemas.refresh.Suspended;

/** Writes the job manager's events on {@code mt.refresh.events}, each acknowledged by the broker before it returns. */
public class RefreshEvents {

  private final KafkaLog log;

  public RefreshEvents(KafkaLog log) {
    this.log = log;
  }

  public void jobStarted(JobStarted event) {
    log.append(Contracts.JOB_STARTED_V1, event.table(), event);
  }

  public void succeeded(RefreshSucceeded event) {
    log.append(Contracts.REFRESH_SUCCEEDED_V1, event.table(), event);
  }

  public void failed(RefreshFailed event) {
    log.append(Contracts.REFRESH_FAILED_V1, event.table(), event);
  }

  public void suspended(Suspended event) {
    log.append(Contracts.SUSPENDED_V1, event.table(), event);
  }

  public void resumed(Resumed event) {
    log.append(Contracts.RESUMED_V1, event.table(), event);
  }

  public void dropped(Dropped event) {
    log.append(Contracts.DROPPED_V1, event.table(), event);
  }
}
