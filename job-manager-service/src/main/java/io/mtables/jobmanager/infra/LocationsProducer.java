package io.mtables.jobmanager.infra;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.jobmanager.jobs.Locations;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The service's locations (warehouse, checkpoints, savepoints) as a bean. */
@ApplicationScoped
public class LocationsProducer {

    @Produces
    @ApplicationScoped
    Locations locations(JobManagerConfig config) {
        return new Locations(config);
    }
}
