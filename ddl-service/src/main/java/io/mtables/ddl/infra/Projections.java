package io.mtables.ddl.infra;

import io.mtables.ddl.domain.PlanProjection;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The read-side projections of other services' events, one instance each. */
public class Projections {

  @Produces
  @Singleton
  PlanProjection plans() {
    return new PlanProjection();
  }
}
