package io.mtables.ddl;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** ddl-service settings. */
@ConfigMapping(prefix = "mt.ddl")
public interface DdlConfig {

    /** The largest statement accepted, in bytes (UTF-8). */
    @WithDefault("262144")
    int maxStatementBytes();

    /**
     * How many results (by request id) an instance remembers, the newest: a request id older than
     * that is no longer found by GET /api/v1/operations nor recognised when sent again.
     */
    @WithDefault("100000")
    int resultsKept();
}
