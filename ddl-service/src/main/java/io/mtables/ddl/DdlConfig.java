package io.mtables.ddl;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** ddl-service settings. */
@ConfigMapping(prefix = "mt.ddl")
public interface DdlConfig {

    /** The largest statement accepted, in bytes (UTF-8). */
    @WithDefault("262144")
    int maxStatementBytes();
}
