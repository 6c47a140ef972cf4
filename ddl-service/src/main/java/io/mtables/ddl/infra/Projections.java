package io.mtables.ddl.infra;

import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The read-side projections of other services' events, one instance each. */
public class Projections {

  @Produces
  @Singleton
  PlanProjection plans() {
    return new PlanProjection();
  }

  @Produces
  @Singleton
  RefreshStatusProjection statuses() {
    return new RefreshStatusProjection();
  }
}
