package io.mtables.jobmanager.infra;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.refresh.Dropped;
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

/**
 * Writes the job manager's events on {@code mt.refresh.events}, each acknowledged by the broker
 * before it returns, and counts each written in {@link RefreshMetrics}.
 */
public class RefreshEvents {

    private final KafkaLog log;
    private final RefreshMetrics metrics;

    public RefreshEvents(KafkaLog log, RefreshMetrics metrics) {
        this.log = log;
        this.metrics = metrics;
    }

    public void jobQueued(JobQueued event) {
        log.append(Contracts.JOB_QUEUED_V1, event.table(), event);
    }

    public void jobStarted(JobStarted event) {
        log.append(Contracts.JOB_STARTED_V1, event.table(), event);
    }

    public void loadProgress(LoadProgress event) {
        log.append(Contracts.LOAD_PROGRESS_V1, event.table(), event);
    }

    public void refreshProgress(RefreshProgress event) {
        log.append(Contracts.REFRESH_PROGRESS_V1, event.table(), event);
    }

    public void succeeded(RefreshSucceeded event) {
        log.append(Contracts.REFRESH_SUCCEEDED_V1, event.table(), event);
        metrics.succeeded(event);
    }

    public void failed(RefreshFailed event) {
        log.append(Contracts.REFRESH_FAILED_V1, event.table(), event);
        metrics.failed(event);
    }

    /**
     * A streaming job that Flink restarted {@code restarts} more times: reported as a failure, and
     * counted.
     */
    public void jobRestarted(RefreshFailed event, long restarts) {
        failed(event);
        metrics.restarted(event.table(), restarts);
    }

    public void suspended(Suspended event) {
        log.append(Contracts.SUSPENDED_V1, event.table(), event);
        metrics.suspended(event);
    }

    public void resumed(Resumed event) {
        log.append(Contracts.RESUMED_V1, event.table(), event);
    }

    public void switchStarted(SwitchStarted event) {
        log.append(Contracts.SWITCH_STARTED_V1, event.table(), event);
    }

    public void switchedOver(SwitchedOver event) {
        log.append(Contracts.SWITCHED_OVER_V1, event.table(), event);
    }

    public void stateRestored(StateRestored event) {
        log.append(Contracts.STATE_RESTORED_V1, event.table(), event);
    }

    public void dropped(Dropped event) {
        log.append(Contracts.DROPPED_V1, event.table(), event);
    }
}
