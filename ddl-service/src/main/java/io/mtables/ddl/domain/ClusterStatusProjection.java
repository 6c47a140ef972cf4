package io.mtables.ddl.domain;

import io.mtables.schemas.cluster.ClusterStatus;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Flink cluster as the job manager last reported it ({@code mt.cluster.status}): what the
 * console's cluster page shows. A report older than the one held (a standby's, read late) is
 * ignored.
 */
public class ClusterStatusProjection {

    private final AtomicReference<ClusterStatus> latest = new AtomicReference<>();

    public void apply(ClusterStatus status) {
        latest.accumulateAndGet(
                status,
                (held, arrived) ->
                        held == null || !arrived.observedAt().isBefore(held.observedAt())
                                ? arrived
                                : held);
    }

    /** The latest report; empty until the job manager has written one. */
    public Optional<ClusterStatus> latest() {
        return Optional.ofNullable(latest.get());
    }
}
