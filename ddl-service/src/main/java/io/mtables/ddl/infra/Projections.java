package io.mtables.ddl.infra;

import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.ddl.domain.ClusterStatusProjection;
import io.mtables.ddl.domain.FreshnessEpisodes;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/** The read-side projections of other services' events, one instance each. */
public class Projections {

    @Produces
    @Singleton
    PlanProjection plans() {
        return new PlanProjection();
    }

    @Produces
    @Singleton
    ClusterStatusProjection cluster() {
        return new ClusterStatusProjection();
    }

    @Produces
    @Singleton
    CaptureSnapshotProjection captures() {
        return new CaptureSnapshotProjection();
    }

    @Produces
    @Singleton
    RefreshStatusProjection statuses() {
        return new RefreshStatusProjection();
    }

    /** Episodes begin no earlier than this start: see {@link FreshnessEpisodes}. */
    @Produces
    @Singleton
    FreshnessEpisodes freshnessEpisodes(
            @org.eclipse.microprofile.config.inject.ConfigProperty(
                            name = "mt.freshness.alert-grace",
                            defaultValue = "30s")
                    Duration grace,
            Clock clock) {
        return new FreshnessEpisodes(grace, clock.instant());
    }
}
