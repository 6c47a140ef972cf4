package io.mtables.ddl.infra;

/** ddl-service is still reading its catalog back from Kafka; try again shortly. */
public class ServiceNotReadyException extends RuntimeException {

    public ServiceNotReadyException(String state) {
        super("ddl-service is not ready yet (" + state + "); retry shortly.");
    }
}
